import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// Every rule a LOG is checked against (protocol.md "LOG", rules.md "Limits and validation"): each refusal
/// carries the spec's code and `field`, stores nothing, and leaves the connection working.
@Suite struct LogValidationTests {
    @Test func amountOutsideOneToOneHundredThousandOrNotAnIntegerIsRefused() async throws {
        let user = try await LaurelTestDatabase.createUser("log-amount")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let amounts: [(JSONValue, String)] = [
                (0, "zero"), (-1, "negative"), (100_001, "above the maximum"), (1.5, "a fraction"), ("3", "a string"),
                (true, "a boolean"), (.null, "null"), ([3], "an array"),
            ]
            try await client.expectRefusals(
                amounts.map { amount, because in
                    Refusal(verb: "LOG", argument: ["activity": "pushups", "amount": amount], code: "invalid_argument", field: "amount",
                            because: because)
                },
                storedRows: { try await LaurelTestDatabase.logCount(of: user) })
            #expect(try await LaurelTestDatabase.logCount(of: user) == 0)

            // Valid JSON, but beyond what any integer type holds: written by hand, as JSONValue cannot hold it.
            try await client.send(#"huge LOG {"activity":"pushups","amount":100000000000000000000}"#)
            let huge = try await client.response(tagged: "huge").response
            #expect(huge.errorCode == "invalid_argument" && huge.errorField == "amount", "\(huge)")
            #expect(try await LaurelTestDatabase.logCount(of: user) == 0)

            let lowest = try await client.request("LOG", ["activity": "pushups", "amount": 1])
            #expect(lowest.okObject["log"]?.objectValue?["amount"]?.intValue == 1)
            let highest = try await client.request("LOG", ["activity": "pushups", "amount": 100_000])
            #expect(highest.okObject["log"]?.objectValue?["amount"]?.intValue == 100_000)
            let missing = try await client.request("LOG", ["activity": "pushups"])
            #expect(missing.okObject["log"]?.objectValue?["amount"]?.intValue == 1, "a missing amount means 1")
        }
        #expect(try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.logs WHERE user_id = $1::bigint AND amount IN (1, 100000)", [.text(user.id.description)]) == 3)
    }

    @Test func unknownAndMissingFieldsAreRefused() async throws {
        let user = try await LaurelTestDatabase.createUser("log-fields")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await client.expectRefusals(
                [
                    Refusal(verb: "LOG", argument: ["activity": "pushups", "amout": 3], code: "invalid_argument", field: "amout",
                            because: "a misspelt field"),
                    Refusal(verb: "LOG", argument: ["activty": "pushups"], code: "invalid_argument", field: "activty",
                            because: "a misspelt required field is reported as unknown"),
                    Refusal(verb: "LOG", argument: ["activity": "pushups", "day": "2026-01-01"], code: "invalid_argument", field: "day",
                            because: "day is computed, not sent"),
                    Refusal(verb: "LOG", argument: ["amount": 3], code: "invalid_argument", field: "activity",
                            because: "no activity"),
                    Refusal(verb: "LOG", argument: nil, code: "invalid_argument", field: "activity", because: "no argument"),
                    Refusal(verb: "LOG", argument: ["activity": "   "], code: "invalid_argument", field: "activity",
                            because: "a blank activity"),
                    Refusal(verb: "LOG", argument: ["activity": 7], code: "invalid_argument", field: "activity",
                            because: "an activity that is not a string"),
                    Refusal(verb: "LOG", argument: ["activity": "pushups", "note": "a\u{0}b"], code: "invalid_argument",
                            field: "note", because: "NUL in the note"),
                    Refusal(verb: "LOG", argument: ["activity": "pushups", "note": .string(String(repeating: "n", count: 1001))],
                            code: "invalid_argument", field: "note", because: "a note of 1001 characters"),
                ],
                storedRows: { try await LaurelTestDatabase.logCount(of: user) })
            let noted = try await client.request("LOG", ["activity": "pushups", "note": "first set\tthen\nsecond"])
            #expect(noted.okObject["log"]?.objectValue?["note"]?.stringValue == "first set\tthen\nsecond")
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 1)
    }

    @Test func atMustHaveAnOffsetAndLieInsideTheWindow() async throws {
        let user = try await LaurelTestDatabase.createUser("log-at")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let now = Date()
            let times: [(String, String)] = [
                (TestTime.utc(now.addingTimeInterval(TestTime.minutes(10))), "10 minutes in the future"),
                (TestTime.withOffset(now.addingTimeInterval(TestTime.minutes(6)), minutesEast: 300), "6 minutes ahead, written at +05:00"),
                (TestTime.utc(now.addingTimeInterval(-TestTime.days(31))), "31 days ago"),
                (TestTime.withOffset(now.addingTimeInterval(-TestTime.days(30) - 3600), minutesEast: -210), "over 30 days ago at -03:30"),
                (TestTime.withoutOffset(now.addingTimeInterval(-3600)), "no offset"),
                ("2026-02-30T10:00:00Z", "a date that does not exist"),
                ("yesterday", "not a timestamp"),
            ]
            var refusals = times.map { at, because in
                Refusal(verb: "LOG", argument: ["activity": "pushups", "at": .string(at)], code: "invalid_argument", field: "at",
                        because: because)
            }
            refusals.append(Refusal(verb: "LOG", argument: ["activity": "pushups", "at": 1_700_000_000], code: "invalid_argument",
                                    field: "at", because: "a number"))
            try await client.expectRefusals(refusals, storedRows: { try await LaurelTestDatabase.logCount(of: user) })
            #expect(try await LaurelTestDatabase.logCount(of: user) == 0)

            let soon = now.addingTimeInterval(TestTime.minutes(4))
            let ahead = try await client.request("LOG", ["activity": "pushups", "at": .string(TestTime.utc(soon))])
            #expect(ahead.kind == "OK", "4 minutes ahead is inside the tolerance: \(ahead)")
            let old = TestTime.wholeSeconds(now.addingTimeInterval(-TestTime.days(29)))
            let backfill = try await client.request("LOG", ["activity": "pushups", "at": .string(TestTime.withOffset(old, minutesEast: 60))])
            #expect(backfill.kind == "OK", "29 days ago is inside the backfill window: \(backfill)")
            #expect(backfill.okObject["log"]?.objectValue?["at"]?.stringValue == TestTime.utc(old))
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 2)
    }

    @Test func unknownActivitiesAreNotFound() async throws {
        let user = try await LaurelTestDatabase.createUser("log-activity")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await client.expectRefusals(
                [
                    Refusal(verb: "LOG", argument: ["activity": "burpees"], code: "not_found", field: "activity", because: "no such activity"),
                    Refusal(verb: "LOG", argument: ["activity": "meditation"], code: "not_found", field: "activity",
                            because: "an activity of another catalog"),
                    Refusal(verb: "LOG", argument: ["activity": .string(String(repeating: "a", count: 129))], code: "invalid_argument",
                            field: "activity", because: "an activity reference of 129 characters"),
                ],
                storedRows: { try await LaurelTestDatabase.logCount(of: user) })
            let byName = try await client.request("LOG", ["activity": "  PushUps  "])
            #expect(byName.okObject["log"]?.objectValue?["activity"]?.stringValue == "pushups", "names are case-insensitive and trimmed")
        }
    }

    @Test func logIDsAreOneTo128Characters() async throws {
        let user = try await LaurelTestDatabase.createUser("log-id")
        let longest = String(repeating: "k", count: 128)
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await client.expectRefusals(
                [
                    Refusal(verb: "LOG", argument: ["activity": "pushups", "id": .string(String(repeating: "k", count: 129))],
                            code: "invalid_argument", field: "id", because: "129 characters"),
                    Refusal(verb: "LOG", argument: ["activity": "pushups", "id": ""], code: "invalid_argument", field: "id",
                            because: "empty"),
                    Refusal(verb: "LOG", argument: ["activity": "pushups", "id": 12], code: "invalid_argument", field: "id",
                            because: "a number"),
                ],
                storedRows: { try await LaurelTestDatabase.logCount(of: user) })
            let accepted = try await client.request("LOG", ["activity": "pushups", "id": .string(longest)])
            #expect(accepted.okObject["log"]?.objectValue?["id"]?.stringValue == longest)
            let generated = try await client.request("LOG", ["activity": "pushups"])
            let generatedID = try #require(generated.okObject["log"]?.objectValue?["id"]?.stringValue)
            #expect(!generatedID.isEmpty && generatedID != longest)
        }
        #expect(try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.logs WHERE user_id = $1::bigint AND id = $2::text", [.text(user.id.description), .text(longest)]) == 1)
    }

    @Test func malformedLinesAreBadRequestsAndChangeNothing() async throws {
        let user = try await LaurelTestDatabase.createUser("log-malformed")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await client.send(#"m1 LOG {"activity":"pushups""#)
            #expect(try await client.response(tagged: "m1").response.errorCode == "bad_request")
            try await client.send(#"m2 LOG {"activity":"pushups"} trailing"#)
            #expect(try await client.response(tagged: "m2").response.errorCode == "bad_request")
            try await client.send(#"m3 LOG ["pushups"]"#)
            let array = try await client.response(tagged: "m3").response
            #expect(array.kind == "ERR", "an argument that is not an object: \(array)")
            try await client.send(#"m4 LGO {"activity":"pushups"}"#)
            let verb = try await client.response(tagged: "m4").response
            #expect(verb.errorCode == "unknown_verb")
            #expect(verb.object["verb"]?.stringValue?.uppercased() == "LGO")
            try await client.send("bad!tag PING")
            #expect(try await client.nextAnswer().raw.hasPrefix("* ERR {\"code\":\"bad_request\""))
            try await client.sendBytes(Array(#"m6 LOG {"activity":"push"#.utf8) + [0xFF, 0xFE] + Array(#"ups"}"#.utf8) + [0x0A])
            let invalid = try await client.nextAnswer()
            #expect(invalid.errorCode == "bad_request", "bytes that are not UTF-8: \(invalid)")
            #expect(try await client.pingSucceeds())
            try await client.send(#"m5 log {"activity":"pushups"}"#)
            #expect(try await client.response(tagged: "m5").response.kind == "OK", "verbs are case-insensitive")
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 1)
    }
}
