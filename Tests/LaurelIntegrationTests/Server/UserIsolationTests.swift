import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// Another user's ids are `not_found` (protocol.md "Errors"): a user can neither see nor touch what belongs to
/// someone else, even knowing its id.
@Suite struct UserIsolationTests {
    @Test func anotherUsersLogsAndActivitiesAreNotFound() async throws {
        let owner = try await LaurelTestDatabase.createUser("owner")
        let stranger = try await LaurelTestDatabase.createUser("stranger")
        let logID = "owned-\(UUID().uuidString)"
        try await TestServer.run { port in
            let a = try await LineClient.authenticated(port: port, token: owner.token)
            let b = try await LineClient.authenticated(port: port, token: stranger.token)

            let created = try await a.request("ACTIVITY.CREATE", ["name": "Handstands", "unit": "seconds"])
            let activityID = try #require(created.okObject["id"]?.stringValue)
            let logged = try await a.request("LOG", ["activity": .string(activityID), "amount": 30, "id": .string(logID)])
            #expect(logged.kind == "OK")

            try await b.expectRefusals(
                [
                    Refusal(verb: "LOG.DELETE", argument: ["id": .string(logID)], code: "not_found", field: "id",
                            because: "the owner's log id"),
                    Refusal(verb: "ACTIVITY.DELETE", argument: ["id": .string(activityID)], code: "not_found", field: "id",
                            because: "the owner's activity id"),
                    Refusal(verb: "ACTIVITY.DELETE", argument: ["id": "Handstands"], code: "not_found", field: "id",
                            because: "the owner's activity name"),
                    Refusal(verb: "ACTIVITY.RESTORE", argument: ["id": .string(activityID)], code: "not_found", field: "id",
                            because: "the owner's activity id"),
                    Refusal(verb: "LOG", argument: ["activity": .string(activityID), "amount": 5], code: "not_found", field: "activity",
                            because: "logging to the owner's activity by id"),
                    Refusal(verb: "LOG", argument: ["activity": "handstands"], code: "not_found", field: "activity",
                            because: "logging to the owner's activity by name"),
                    Refusal(verb: "LOGS", argument: ["activity": .string(activityID)], code: "not_found", field: "activity",
                            because: "listing the owner's activity"),
                    Refusal(verb: "LOGS", argument: ["before": .string(logID)], code: "not_found", field: "before",
                            because: "paging from the owner's log"),
                ],
                storedRows: {
                    try await LaurelTestDatabase.logCount(of: owner) + LaurelTestDatabase.logCount(of: stranger)
                        + LaurelTestDatabase.activityCount(of: stranger)
                })

            let listed = try await b.request("ACTIVITIES", ["include_deleted": true])
            #expect(!listed.okArray.contains { $0.objectValue?["id"]?.stringValue == activityID })
            #expect(try await b.request("LOGS").okObject["logs"]?.arrayValue?.isEmpty == true)

            // The stranger may use the same log id and activity name for things of its own.
            let own = try await b.request("LOG", ["activity": "pushups", "amount": 3, "id": .string(logID)])
            #expect(own.okObject["duplicate"]?.boolValue == false, "log ids are per user: \(own)")
            let ownActivity = try await b.request("ACTIVITY.CREATE", ["name": "Handstands"])
            #expect(ownActivity.kind == "OK")
            #expect(ownActivity.okObject["id"]?.stringValue != activityID)

            // The owner's things are untouched.
            let ownerLogs = try await a.request("LOGS")
            let logs = ownerLogs.okObject["logs"]?.arrayValue ?? []
            #expect(logs.count == 1)
            #expect(logs.first?.objectValue?["amount"]?.intValue == 30)
            #expect(logs.first?.objectValue?["activity"]?.stringValue == activityID)
            let ownerActivities = try await a.request("ACTIVITIES")
            #expect(ownerActivities.okArray.contains {
                $0.objectValue?["id"]?.stringValue == activityID && $0.objectValue?["deleted"]?.boolValue == false
            })
        }
        #expect(try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.logs WHERE user_id = $1::bigint AND id = $2::text AND deleted_at IS NULL",
            [.text(owner.id.description), .text(logID)]) == 1)
        #expect(try await LaurelTestDatabase.logCount(of: stranger) == 1)
    }
}
