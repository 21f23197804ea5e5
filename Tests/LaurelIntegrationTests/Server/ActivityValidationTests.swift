import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// The rules ACTIVITY.CREATE checks (protocol.md "Activities and logs", rules.md "Names"): each refusal carries
/// the spec's code and `field`, stores nothing, and leaves the connection working.
@Suite struct ActivityValidationTests {
    @Test func namesMustBeOneTo64CharactersWithoutControlCharacters() async throws {
        let user = try await LaurelTestDatabase.createUser("activity-name")
        let longest = String(repeating: "é", count: 64)
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let names: [(JSONValue, String)] = [
                ("", "empty"), ("   \t ", "empty after trimming"), (.string(String(repeating: "x", count: 65)), "65 characters"),
                (.string(String(repeating: "é", count: 65)), "65 two-byte characters"), ("Row\u{1}ing", "a control character"),
                ("Row\ning", "a line break"), ("Rowing\u{7F}", "DEL"), (5, "a number"), (.null, "null"),
            ]
            var refusals = names.map { name, because in
                Refusal(verb: "ACTIVITY.CREATE", argument: ["name": name], code: "invalid_argument", field: "name", because: because)
            }
            refusals += [
                Refusal(verb: "ACTIVITY.CREATE", argument: [:], code: "invalid_argument", field: "name", because: "no name"),
                Refusal(verb: "ACTIVITY.CREATE", argument: nil, code: "invalid_argument", field: "name", because: "no argument"),
                Refusal(verb: "ACTIVITY.CREATE", argument: ["name": "Rowing", "colour": "red"], code: "invalid_argument",
                        field: "colour", because: "an unknown field"),
                Refusal(verb: "ACTIVITY.CREATE", argument: ["name": "Rowing", "unit": "kg"], code: "invalid_argument",
                        field: "unit", because: "an unknown unit"),
                Refusal(verb: "ACTIVITY.CREATE", argument: ["name": "Rowing", "unit": "Reps"], code: "invalid_argument",
                        field: "unit", because: "a unit in the wrong case"),
                Refusal(verb: "ACTIVITY.CREATE", argument: ["name": "Rowing", "icon": ""], code: "invalid_argument",
                        field: "icon", because: "an empty icon"),
                Refusal(verb: "ACTIVITY.CREATE", argument: ["name": "Rowing", "icon": .string(String(repeating: "i", count: 65))],
                        code: "invalid_argument", field: "icon", because: "an icon of 65 characters"),
            ]
            try await client.expectRefusals(refusals, storedRows: { try await LaurelTestDatabase.activityCount(of: user) })
            #expect(try await LaurelTestDatabase.activityCount(of: user) == 0)

            let long = try await client.request("ACTIVITY.CREATE", ["name": .string(longest)])
            #expect(long.okObject["name"]?.stringValue == longest)
            let trimmed = try await client.request("ACTIVITY.CREATE", ["name": "  Rowing  ", "unit": "minutes", "icon": "🚣"])
            #expect(trimmed.okObject["name"]?.stringValue == "Rowing")
            #expect(trimmed.okObject["unit"]?.stringValue == "minutes")
            #expect(trimmed.okObject["icon"]?.stringValue == "🚣")
            #expect(trimmed.okObject["custom"]?.boolValue == true)
            #expect(trimmed.okObject["deleted"]?.boolValue == false)
            let plain = try await client.request("ACTIVITY.CREATE", ["name": "Skipping"])
            #expect(plain.okObject["unit"]?.stringValue == "reps", "the unit defaults to reps")
        }
        #expect(try await LaurelTestDatabase.activityCount(of: user) == 3)
    }

    @Test func everyUnitOfTheSpecIsAccepted() async throws {
        let user = try await LaurelTestDatabase.createUser("activity-units")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            for unit in ["reps", "seconds", "minutes", "sessions", "times"] {
                let created = try await client.request("ACTIVITY.CREATE", ["name": .string("In \(unit)"), "unit": .string(unit)])
                #expect(created.okObject["unit"]?.stringValue == unit, "\(created)")
            }
        }
        #expect(try await LaurelTestDatabase.activityCount(of: user) == 5)
    }

    @Test func builtInNamesAndIDsAreTaken() async throws {
        let user = try await LaurelTestDatabase.createUser("activity-builtin")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            // Full-width letters are the same name once normalised (NFKC).
            let taken = ["pushups", "Pushups", "PUSHUPS", "  squats ", "Plank", "Ｐｕｓｈｕｐｓ", "ｐｌａｎｋ"]
            try await client.expectRefusals(
                taken.map { name in
                    Refusal(verb: "ACTIVITY.CREATE", argument: ["name": .string(name)], code: "conflict", field: nil,
                            because: "the name of a built-in")
                },
                storedRows: { try await LaurelTestDatabase.activityCount(of: user) })
            // A name with an invisible character would look like the built-in's: refused, not cleaned.
            let invisible = ["\u{200B}pushups", "push\u{200D}ups", "pushups\u{200B}", "push\u{00AD}ups", "\u{200F}plank",
                             "squats\u{2060}", "\u{FEFF}squats", "push\u{3164}ups"]
            try await client.expectRefusals(
                invisible.map { name in
                    Refusal(verb: "ACTIVITY.CREATE", argument: ["name": .string(name)], code: "invalid_argument", field: "name",
                            because: "a look-alike of a built-in's name")
                },
                storedRows: { try await LaurelTestDatabase.activityCount(of: user) })
            // A full-width reference finds the built-in, and emoji keep their joiners.
            let logged = try await client.request("LOG", ["activity": "Ｐｕｓｈｕｐｓ", "amount": 1])
            #expect(logged.okObject["log"]?.objectValue?["activity"]?.stringValue == "pushups", "\(logged)")
            let yoga = try await client.request("ACTIVITY.CREATE", ["name": "Yoga 🧘\u{200D}♀\u{FE0F}", "unit": "minutes"])
            #expect(yoga.okObject["name"]?.stringValue == "Yoga 🧘\u{200D}♀\u{FE0F}", "\(yoga)")
        }
        #expect(try await LaurelTestDatabase.activityCount(of: user) == 1)
    }

    @Test func customNamesAreUniquePerUserCaseInsensitively() async throws {
        let user = try await LaurelTestDatabase.createUser("activity-unique")
        let other = try await LaurelTestDatabase.createUser("activity-unique-other")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let first = try await client.request("ACTIVITY.CREATE", ["name": "Yoga Flow", "unit": "minutes"])
            #expect(first.kind == "OK")
            try await client.expectRefusals(
                ["Yoga Flow", "yoga flow", "YOGA FLOW", "  Yoga Flow  "].map { name in
                    Refusal(verb: "ACTIVITY.CREATE", argument: ["name": .string(name), "unit": "seconds"], code: "conflict", field: nil,
                            because: "a live custom activity has that name")
                },
                storedRows: { try await LaurelTestDatabase.activityCount(of: user) })
            let activities = try await client.request("ACTIVITIES")
            let yoga = activities.okArray.filter { $0.objectValue?["name"]?.stringValue == "Yoga Flow" }
            #expect(yoga.count == 1)
            #expect(yoga.first?.objectValue?["unit"]?.stringValue == "minutes", "the refused create changed nothing")

            // Another user may use the same name.
            let otherClient = try await LineClient.authenticated(port: port, token: other.token)
            #expect(try await otherClient.request("ACTIVITY.CREATE", ["name": "yoga flow"]).kind == "OK")
        }
        #expect(try await LaurelTestDatabase.activityCount(of: user) == 1)
        #expect(try await LaurelTestDatabase.activityCount(of: other) == 1)
    }

    @Test func caseInsensitivityCoversLettersBeyondASCII() async throws {
        let user = try await LaurelTestDatabase.createUser("activity-unicode")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let created = try await client.request("ACTIVITY.CREATE", ["name": "Übungen"])
            let id = try #require(created.okObject["id"]?.stringValue)
            let logged = try await client.request("LOG", ["activity": "übungen"])
            #expect(logged.okObject["log"]?.objectValue?["activity"]?.stringValue == id, "activities are named case-insensitively: \(logged)")
            try await client.expectRefusals(
                ["übungen", "ÜBUNGEN"].map { name in
                    Refusal(verb: "ACTIVITY.CREATE", argument: ["name": .string(name)], code: "conflict", field: nil,
                            because: "the same name in another case")
                },
                storedRows: { try await LaurelTestDatabase.activityCount(of: user) })
        }
        #expect(try await LaurelTestDatabase.activityCount(of: user) == 1)
    }

    @Test func customActivitiesStopAtTheLimit() async throws {
        let user = try await LaurelTestDatabase.createUser("activity-limit")
        var configuration = ServerConfiguration()
        configuration.limits.customActivities = 3
        try await TestServer.run(configuration: configuration) { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            for name in ["One", "Two", "Three"] {
                #expect(try await client.request("ACTIVITY.CREATE", ["name": .string(name)]).kind == "OK")
            }
            let fourth = try await client.request("ACTIVITY.CREATE", ["name": "Four"])
            #expect(fourth.errorCode == "too_large")
            #expect(fourth.object["limit"]?.intValue == 3)
            #expect(try await client.pingSucceeds())

            // Whether deleted activities count toward the limit is the server's choice; live ones never exceed it.
            #expect(try await client.request("ACTIVITY.DELETE", ["id": "Three"]).kind == "OK")
            let afterDelete = try await client.request("ACTIVITY.CREATE", ["name": "Four"])
            #expect(afterDelete.kind == "OK" || afterDelete.errorCode == "too_large", "\(afterDelete)")
            let restored = try await client.request("ACTIVITY.RESTORE", ["id": "Three"])
            let recreated = try await client.request("ACTIVITY.CREATE", ["name": "three"])
            let live = try await client.request("ACTIVITIES").okArray.filter { $0.objectValue?["custom"]?.boolValue == true }
            #expect(live.count <= 3, "live custom activities exceed the limit of 3: restore \(restored), re-create \(recreated)")
            if afterDelete.kind == "OK" {
                #expect(restored.errorCode == "too_large", "restoring would make a fourth live activity: \(restored)")
            }
        }
    }
}
