import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// A LOG's `id` is an idempotency key: a retry gets the first answer back and counts nothing twice, a different
/// log under a used id is a conflict, and a deleted log's id stays taken.
@Suite struct IdempotentLogTests {
    private static func rows(_ user: TestUser, id: String) async throws -> Int {
        try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.logs WHERE user_id = $1::bigint AND id = $2::text", [.text(user.id.description), .text(id)])
    }

    @Test func repeatingALogReturnsTheFirstResultMarkedDuplicate() async throws {
        let user = try await LaurelTestDatabase.createUser("idem-same")
        let id = UUID().uuidString
        let at = TestTime.wholeSeconds(Date().addingTimeInterval(-3600))
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let argument: JSONObject = ["activity": "pushups", "amount": 12, "at": .string(TestTime.utc(at)), "id": .string(id), "note": "morning"]
            let first = try await client.request("LOG", argument)
            #expect(first.okObject["duplicate"]?.boolValue == false)
            let log = try #require(first.okObject["log"]?.objectValue)
            #expect(log["id"]?.stringValue == id)

            let again = try await client.request("LOG", argument)
            #expect(again.okObject["duplicate"]?.boolValue == true)
            var expected = first.okObject
            expected["duplicate"] = true
            #expect(again.okObject == expected, "the retry answers with the first result")

            // The same content written differently: the activity by name in another case, `at` at another offset.
            let rewritten: JSONObject = [
                "id": .string(id), "note": "morning", "at": .string(TestTime.withOffset(at, minutesEast: -300)), "amount": 12,
                "activity": "PushUps",
            ]
            let third = try await client.request("LOG", rewritten)
            #expect(third.okObject["duplicate"]?.boolValue == true, "\(third)")
            #expect(third.okObject["log"] == first.okObject["log"])

            // On another connection of the same user too.
            let second = try await LineClient.authenticated(port: port, token: user.token)
            #expect(try await second.request("LOG", argument).okObject["duplicate"]?.boolValue == true)

            let profile = try await client.request("PROFILE")
            #expect(profile.okObject["totals"]?.objectValue?["logs"]?.intValue == 1)
            #expect(profile.okObject["totals"]?.objectValue?["by_activity"]?.objectValue?["pushups"]?.intValue == 12)
        }
        #expect(try await Self.rows(user, id: id) == 1)
        #expect(try await LaurelTestDatabase.logCount(of: user) == 1)
    }

    @Test func aLogWithoutAtMatchesOnlyAnotherWithoutAt() async throws {
        let user = try await LaurelTestDatabase.createUser("idem-now")
        let id = "now-\(UUID().uuidString)"
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let first = try await client.request("LOG", ["activity": "squats", "amount": 20, "id": .string(id)])
            #expect(first.okObject["duplicate"]?.boolValue == false)
            try await Task.sleep(for: .milliseconds(20))
            let again = try await client.request("LOG", ["activity": "squats", "amount": 20, "id": .string(id)])
            #expect(again.okObject["duplicate"]?.boolValue == true)
            #expect(again.okObject["log"] == first.okObject["log"], "the retry keeps the first log's time")
            let stamped = try #require(first.okObject["log"]?.objectValue?["at"]?.stringValue)
            let withAt = try await client.request("LOG", ["activity": "squats", "amount": 20, "id": .string(id), "at": .string(stamped)])
            #expect(withAt.errorCode == "conflict", "a LOG without at matches only another without at: \(withAt)")
        }
        #expect(try await Self.rows(user, id: id) == 1)
    }

    @Test func theSameIDWithOtherContentIsAConflict() async throws {
        let user = try await LaurelTestDatabase.createUser("idem-conflict")
        let id = UUID().uuidString
        let at = TestTime.wholeSeconds(Date().addingTimeInterval(-7200))
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let original: JSONObject = ["activity": "pushups", "amount": 10, "at": .string(TestTime.utc(at)), "id": .string(id), "note": "n"]
            #expect(try await client.request("LOG", original).kind == "OK")
            var variants: [(JSONObject, String)] = []
            var changed = original
            changed["amount"] = 11
            variants.append((changed, "another amount"))
            changed = original
            changed["activity"] = "squats"
            variants.append((changed, "another activity"))
            changed = original
            changed["note"] = "m"
            variants.append((changed, "another note"))
            changed = original
            changed["note"] = nil
            variants.append((changed, "no note"))
            changed = original
            changed["at"] = .string(TestTime.utc(at.addingTimeInterval(1)))
            variants.append((changed, "another at"))
            changed = original
            changed["at"] = nil
            variants.append((changed, "no at"))
            changed = original
            changed["amount"] = nil
            variants.append((changed, "the default amount"))
            try await client.expectRefusals(
                variants.map { Refusal(verb: "LOG", argument: $0.0, code: "conflict", field: nil, because: $0.1) },
                storedRows: { try await LaurelTestDatabase.logCount(of: user) })
            let logs = try await client.request("LOGS")
            let stored = logs.okObject["logs"]?.arrayValue ?? []
            #expect(stored.count == 1)
            #expect(stored.first?.objectValue?["amount"]?.intValue == 10)
        }
        #expect(try await Self.rows(user, id: id) == 1)
    }

    @Test func repeatingADeletedLogIsADuplicateAndItStaysDeleted() async throws {
        let user = try await LaurelTestDatabase.createUser("idem-deleted")
        let id = UUID().uuidString
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let argument: JSONObject = ["activity": "lunges", "amount": 8, "id": .string(id)]
            let first = try await client.request("LOG", argument)
            #expect(first.okObject["duplicate"]?.boolValue == false)
            let deleted = try await client.request("LOG.DELETE", ["id": .string(id)])
            #expect(deleted.okObject["log"]?.objectValue?["id"]?.stringValue == id)
            #expect(deleted.okObject["log"]?.objectValue?["amount"]?.intValue == 8)

            let repeated = try await client.request("LOG", argument)
            #expect(repeated.okObject["duplicate"]?.boolValue == true, "\(repeated)")
            #expect(repeated.okObject["log"] == first.okObject["log"])

            let logs = try await client.request("LOGS")
            #expect(logs.okObject["logs"]?.arrayValue?.isEmpty == true, "the log is still deleted: \(logs)")
            let profile = try await client.request("PROFILE")
            #expect(profile.okObject["totals"]?.objectValue?["logs"]?.intValue == 0)

            let deleteAgain = try await client.request("LOG.DELETE", ["id": .string(id)])
            #expect(deleteAgain.errorCode == "not_found" && deleteAgain.errorField == "id")
            let otherContent = try await client.request("LOG", ["activity": "lunges", "amount": 9, "id": .string(id)])
            #expect(otherContent.errorCode == "conflict")
        }
        #expect(try await Self.rows(user, id: id) == 1)
        #expect(try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.logs WHERE user_id = $1::bigint AND id = $2::text AND deleted_at IS NOT NULL",
            [.text(user.id.description), .text(id)]) == 1)
    }

    @Test func retriesRacingOnTwoServersLogOnce() async throws {
        let user = try await LaurelTestDatabase.createUser("idem-race")
        let ids = (1...20).map { "race-\($0)-\(UUID().uuidString.prefix(8))" }
        try await TestServer.run { firstPort in
            try await TestServer.run { secondPort in
                let clients = [
                    try await LineClient.authenticated(port: firstPort, token: user.token),
                    try await LineClient.authenticated(port: firstPort, token: user.token),
                    try await LineClient.authenticated(port: secondPort, token: user.token),
                ]
                // Each client sends every LOG in one write, so the three copies of each arrive at about one time.
                for client in clients {
                    try await client.sendRaw(ids.map { "\($0) LOG {\"activity\":\"squats\",\"amount\":3,\"id\":\"\($0)\"}\n" }.joined())
                }
                var fresh: [String: Int] = [:]
                for client in clients {
                    for id in ids {
                        let answer = try await client.response(tagged: id).response
                        #expect(answer.kind == "OK", "\(answer)")
                        if answer.okObject["duplicate"]?.boolValue == false { fresh[id, default: 0] += 1 }
                    }
                }
                #expect(ids.allSatisfy { fresh[$0] == 1 }, "each id is logged once, the other answers are duplicates: \(fresh)")
            }
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 20)
        #expect(try await LaurelTestDatabase.count(
            "SELECT sum(amount) FROM laurel.logs WHERE user_id = $1::bigint", [.text(user.id.description)]) == 60)
    }

    @Test func aRetryAfterTheBackfillWindowHasPassedIsStillADuplicate() async throws {
        let user = try await LaurelTestDatabase.createUser("idem-window")
        let id = UUID().uuidString
        var configuration = ServerConfiguration()
        configuration.logTimePolicy = LogTimePolicy(futureTolerance: 300, backfillWindow: 3)
        try await TestServer.run(configuration: configuration) { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let at = TestTime.utc(Date())
            let argument: JSONObject = ["activity": "pushups", "amount": 4, "at": .string(at), "id": .string(id)]
            let first = try await client.request("LOG", argument)
            #expect(first.okObject["duplicate"]?.boolValue == false, "\(first)")
            // The `at` of the stored log is now outside the window; the retry is still the same LOG.
            try await Task.sleep(for: .seconds(4))
            let retry = try await client.request("LOG", argument)
            #expect(retry.okObject["duplicate"]?.boolValue == true, "repeating a LOG with the same id returns the first result: \(retry)")
        }
        #expect(try await Self.rows(user, id: id) == 1)
    }

    @Test func aRetryIsNotRateLimitedAsANewLog() async throws {
        let user = try await LaurelTestDatabase.createUser("idem-rate")
        let id = UUID().uuidString
        var configuration = ServerConfiguration()
        configuration.limits.logsPerSecond = 0.01
        configuration.limits.logBurst = 2
        try await TestServer.run(configuration: configuration) { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let argument: JSONObject = ["activity": "pushups", "amount": 4, "id": .string(id)]
            #expect(try await client.request("LOG", argument).okObject["duplicate"]?.boolValue == false)
            #expect(try await client.request("LOG", ["activity": "pushups"]).kind == "OK")
            let limited = try await client.request("LOG", ["activity": "pushups"])
            #expect(limited.errorCode == "rate_limited", "the burst of 2 is spent: \(limited)")
            #expect((limited.object["retry_after_ms"]?.intValue ?? 0) > 0)
            let retry = try await client.request("LOG", argument)
            #expect(retry.okObject["duplicate"]?.boolValue == true, "a retry logs nothing new, so it spends no allowance: \(retry)")
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 2)
    }

    @Test func logDeleteRefusesUnknownIDs() async throws {
        let user = try await LaurelTestDatabase.createUser("idem-delete")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await client.expectRefusals(
                [
                    Refusal(verb: "LOG.DELETE", argument: ["id": "never-logged"], code: "not_found", field: "id", because: "no such log"),
                    Refusal(verb: "LOG.DELETE", argument: [:], code: "invalid_argument", field: "id", because: "no id"),
                    Refusal(verb: "LOG.DELETE", argument: ["id": "x", "force": true], code: "invalid_argument", field: "force",
                            because: "an unknown field"),
                ],
                storedRows: { try await LaurelTestDatabase.logCount(of: user) })
        }
    }
}
