import LaurelCore
import LaurelJSON
import LaurelPostgres
import Testing

/// SETTINGS: reading, changing the time zone, the rest day and vacation, and refusing what is not valid.
@Suite struct SettingsTests {
    private static func settingsRows(_ user: TestUser) async throws -> Int {
        try await LaurelTestDatabase.count("SELECT count(*) FROM laurel.settings WHERE user_id = $1::bigint", [.text(user.id.description)])
    }

    @Test func settingsReadAndChange() async throws {
        let user = try await LaurelTestDatabase.createUser("settings")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let initial = try await client.request("SETTINGS")
            #expect(initial.okObject == ["time_zone": "UTC", "rest_day": .null, "vacation": false, "weekly_goal": 3, "reminder_window_minutes": 30, "leaderboards": true])
            #expect(try await client.request("SETTINGS", [:]).okObject == initial.okObject, "an empty object only reads")

            let zone = try await client.request("SETTINGS", ["time_zone": "America/New_York"])
            #expect(zone.okObject == ["time_zone": "America/New_York", "rest_day": .null, "vacation": false, "weekly_goal": 3, "reminder_window_minutes": 30, "leaderboards": true])
            let rest = try await client.request("SETTINGS", ["rest_day": "sunday"])
            #expect(rest.okObject == ["time_zone": "America/New_York", "rest_day": "sunday", "vacation": false, "weekly_goal": 3, "reminder_window_minutes": 30, "leaderboards": true])
            let vacation = try await client.request("SETTINGS", ["vacation": true, "time_zone": "Asia/Tokyo"])
            #expect(vacation.okObject == ["time_zone": "Asia/Tokyo", "rest_day": "sunday", "vacation": true, "weekly_goal": 3, "reminder_window_minutes": 30, "leaderboards": true])
            let cleared = try await client.request("SETTINGS", ["rest_day": .null, "vacation": false])
            #expect(cleared.okObject == ["time_zone": "Asia/Tokyo", "rest_day": .null, "vacation": false, "weekly_goal": 3, "reminder_window_minutes": 30, "leaderboards": true])
            #expect(try await client.request("SETTINGS").okObject == cleared.okObject)

            // Another connection sees the change, AUTH included.
            let other = try await LineClient.connectAndGreet(port: port)
            let auth = try await other.request("AUTH", ["token": .string(user.token)])
            #expect(auth.okObject["time_zone"]?.stringValue == "Asia/Tokyo")
            #expect(try await other.request("SETTINGS").okObject == cleared.okObject)
        }
        #expect(try await LaurelTestDatabase.scalar(
            "SELECT time_zone FROM laurel.settings WHERE user_id = $1::bigint ORDER BY id DESC LIMIT 1", [.text(user.id.description)])
            == "Asia/Tokyo")
    }

    @Test func invalidSettingsAreRefusedAndChangeNothing() async throws {
        let user = try await LaurelTestDatabase.createUser("settings-bad")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await client.expectRefusals(
                [
                    Refusal(verb: "SETTINGS", argument: ["time_zone": "Mars/Olympus_Mons"], code: "invalid_argument", field: "time_zone",
                            because: "no such zone"),
                    Refusal(verb: "SETTINGS", argument: ["time_zone": ""], code: "invalid_argument", field: "time_zone", because: "empty"),
                    Refusal(verb: "SETTINGS", argument: ["time_zone": 2], code: "invalid_argument", field: "time_zone", because: "a number"),
                    Refusal(verb: "SETTINGS", argument: ["time_zone": .null], code: "invalid_argument", field: "time_zone", because: "null"),
                    Refusal(verb: "SETTINGS", argument: ["time_zone": "Europe/Paris", "rest_day": "funday"], code: "invalid_argument",
                            field: "rest_day", because: "no such weekday, with a valid zone beside it"),
                    Refusal(verb: "SETTINGS", argument: ["rest_day": "Sunday"], code: "invalid_argument", field: "rest_day",
                            because: "weekdays are lowercase"),
                    Refusal(verb: "SETTINGS", argument: ["rest_day": 7], code: "invalid_argument", field: "rest_day", because: "a number"),
                    Refusal(verb: "SETTINGS", argument: ["vacation": "true"], code: "invalid_argument", field: "vacation", because: "a string"),
                    Refusal(verb: "SETTINGS", argument: ["vacation": .null], code: "invalid_argument", field: "vacation", because: "null"),
                    Refusal(verb: "SETTINGS", argument: ["weekly_goal": 0], code: "invalid_argument", field: "weekly_goal", because: "below 1"),
                    Refusal(verb: "SETTINGS", argument: ["weekly_goal": 8], code: "invalid_argument", field: "weekly_goal", because: "above 7"),
                    Refusal(verb: "SETTINGS", argument: ["weekly_goal": "3"], code: "invalid_argument", field: "weekly_goal", because: "a string"),
                    Refusal(verb: "SETTINGS", argument: ["weekly_goal": 2.5], code: "invalid_argument", field: "weekly_goal", because: "a fraction"),
                    Refusal(verb: "SETTINGS", argument: ["timezone": "UTC"], code: "invalid_argument", field: "timezone",
                            because: "an unknown field"),
                ],
                storedRows: { try await Self.settingsRows(user) })
            #expect(try await client.request("SETTINGS").okObject == ["time_zone": "UTC", "rest_day": .null, "vacation": false, "weekly_goal": 3, "reminder_window_minutes": 30, "leaderboards": true])
        }
    }
}
