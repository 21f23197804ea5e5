import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// Listing, soft-deleting, restoring and re-creating activities (protocol.md "Activities and logs",
/// docs/protocol-notes.md "Decisions").
@Suite struct ActivityLifecycleTests {
    private static func find(_ id: String, in answer: LineClient.Line) -> JSONObject? {
        answer.okArray.compactMap { $0.objectValue }.first { $0["id"]?.stringValue == id }
    }

    @Test func activitiesListsTheBuiltInsThenTheUsersOwn() async throws {
        let user = try await LaurelTestDatabase.createUser("activities")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let builtins = try await client.request("ACTIVITIES")
            let expected: [JSONValue] = [
                ["id": "squats", "name": "Squats", "unit": "reps", "custom": false, "deleted": false],
                ["id": "pushups", "name": "Pushups", "unit": "reps", "custom": false, "deleted": false],
                ["id": "lunges", "name": "Lunges", "unit": "reps", "custom": false, "deleted": false],
                ["id": "plank", "name": "Plank", "unit": "seconds", "custom": false, "deleted": false],
            ]
            #expect(Set(builtins.okArray.map { $0.objectValue?.removingIcon }) == Set(expected.map { $0.objectValue?.removingIcon }))

            let created = try await client.request("ACTIVITY.CREATE", ["name": "Jumping Jacks", "unit": "times"])
            let id = try #require(created.okObject["id"]?.stringValue)
            let listed = try await client.request("ACTIVITIES")
            #expect(listed.okArray.count == 5)
            #expect(listed.okArray.last?.objectValue?["id"]?.stringValue == id, "custom activities follow the built-ins")
            #expect(Self.find(id, in: listed) == created.okObject)
            #expect(try await client.request("ACTIVITIES", ["include_deleted": "yes"]).errorField == "include_deleted")
        }
    }

    @Test func deleteHidesRestoreBringsBackAndLogsFollow() async throws {
        let user = try await LaurelTestDatabase.createUser("activity-delete")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let created = try await client.request("ACTIVITY.CREATE", ["name": "Kettlebell", "unit": "reps", "icon": "kettlebell"])
            let id = try #require(created.okObject["id"]?.stringValue)
            #expect(try await client.request("LOG", ["activity": "kettlebell", "amount": 15]).kind == "OK")

            let deleted = try await client.request("ACTIVITY.DELETE", ["id": .string(id)])
            #expect(deleted.okObject["deleted"]?.boolValue == true)
            #expect(deleted.okObject["id"]?.stringValue == id)
            #expect(Self.find(id, in: try await client.request("ACTIVITIES")) == nil, "deleted activities are not listed by default")
            let withDeleted = try await client.request("ACTIVITIES", ["include_deleted": true])
            #expect(Self.find(id, in: withDeleted)?["deleted"]?.boolValue == true)

            let logToDeleted = try await client.request("LOG", ["activity": .string(id)])
            #expect(logToDeleted.errorCode == "not_found" && logToDeleted.errorField == "activity")
            let logsOfDeleted = try await client.request("LOGS", ["activity": .string(id)])
            #expect(logsOfDeleted.okObject["logs"]?.arrayValue?.count == 1, "logs of a deleted activity stay readable")
            let deleteAgain = try await client.request("ACTIVITY.DELETE", ["id": .string(id)])
            #expect(deleteAgain.okObject["deleted"]?.boolValue == true)

            let restored = try await client.request("ACTIVITY.RESTORE", ["id": "KETTLEBELL"])
            #expect(restored.okObject["deleted"]?.boolValue == false)
            #expect(restored.okObject["id"]?.stringValue == id)
            #expect(restored.okObject["icon"]?.stringValue == "kettlebell")
            #expect(Self.find(id, in: try await client.request("ACTIVITIES"))?["deleted"]?.boolValue == false)
            #expect(try await client.request("LOG", ["activity": "Kettlebell", "amount": 5]).kind == "OK")
            let restoreAgain = try await client.request("ACTIVITY.RESTORE", ["id": .string(id)])
            #expect(restoreAgain.okObject["deleted"]?.boolValue == false)
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 2)
        #expect(try await LaurelTestDatabase.activityCount(of: user) == 1)
    }

    @Test func recreatingADeletedActivitysNameRestoresIt() async throws {
        let user = try await LaurelTestDatabase.createUser("activity-recreate")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let created = try await client.request("ACTIVITY.CREATE", ["name": "Wall Sit", "unit": "seconds", "icon": "chair"])
            let id = try #require(created.okObject["id"]?.stringValue)
            #expect(try await client.request("LOG", ["activity": .string(id), "amount": 60, "id": "wall-1"]).kind == "OK")
            #expect(try await client.request("ACTIVITY.DELETE", ["id": "wall sit"]).kind == "OK")

            let recreated = try await client.request("ACTIVITY.CREATE", ["name": "WALL SIT", "unit": "reps"])
            #expect(recreated.okObject["id"]?.stringValue == id, "the same activity comes back")
            #expect(recreated.okObject["deleted"]?.boolValue == false)
            #expect(recreated.okObject["unit"]?.stringValue == "seconds", "it keeps its unit")
            #expect(recreated.okObject["icon"]?.stringValue == "chair", "it keeps its icon")
            #expect(recreated.okObject["name"]?.stringValue == "Wall Sit")

            let logs = try await client.request("LOGS", ["activity": .string(id)])
            #expect(logs.okObject["logs"]?.arrayValue?.first?.objectValue?["id"]?.stringValue == "wall-1", "its logs are intact")
            #expect(try await client.request("ACTIVITY.CREATE", ["name": "wall sit"]).errorCode == "conflict", "now it is live again")
        }
        #expect(try await LaurelTestDatabase.activityCount(of: user) == 1)
    }

    @Test func builtInsCannotBeDeletedOrRestoredAndUnknownIDsAreNotFound() async throws {
        let user = try await LaurelTestDatabase.createUser("activity-builtin-delete")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await client.expectRefusals(
                [
                    Refusal(verb: "ACTIVITY.DELETE", argument: ["id": "pushups"], code: "conflict", field: nil, because: "a built-in"),
                    Refusal(verb: "ACTIVITY.DELETE", argument: ["id": "Plank"], code: "conflict", field: nil, because: "a built-in by name"),
                    Refusal(verb: "ACTIVITY.RESTORE", argument: ["id": "squats"], code: "conflict", field: nil, because: "a built-in"),
                    Refusal(verb: "ACTIVITY.DELETE", argument: ["id": "no-such-activity"], code: "not_found", field: "id",
                            because: "no such activity"),
                    Refusal(verb: "ACTIVITY.RESTORE", argument: ["id": "no-such-activity"], code: "not_found", field: "id",
                            because: "no such activity"),
                    Refusal(verb: "ACTIVITY.DELETE", argument: [:], code: "invalid_argument", field: "id", because: "no id"),
                ],
                storedRows: { try await LaurelTestDatabase.activityCount(of: user) })
            #expect(try await client.request("LOG", ["activity": "pushups"]).kind == "OK", "the built-in is still there")
        }
    }
}

private extension JSONObject {
    /// Built-ins may carry an icon from the catalog; the spec does not fix it.
    var removingIcon: JSONObject {
        var copy = self
        copy["icon"] = nil
        return copy
    }
}
