import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import Testing

/// A log's `day` is the local date of its `at` in the user's time zone at the time of logging (rules.md "Days
/// and time zones"), whatever offset the client wrote `at` with.
@Suite struct LogDayTests {
    private static func day(of answer: LineClient.Line) -> String? {
        answer.okObject["log"]?.objectValue?["day"]?.stringValue
    }

    @Test func aUserFourteenHoursAheadLogsOnTheNextLocalDate() async throws {
        let zone = "Pacific/Kiritimati"
        let user = try await LaurelTestDatabase.createUser("kiritimati", timeZone: zone)
        // 11:00 UTC is 01:00 the next day in Kiritimati (UTC+14, no daylight saving).
        let at = TestTime.utcDay(offsetBy: -3, hour: 11)
        let local = TestTime.localDay(of: at, in: zone)
        #expect(local != TestTime.localDay(of: at, in: "UTC"))
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let auth = try await LineClient.connectAndGreet(port: port).request("AUTH", ["token": .string(user.token)])
            #expect(auth.okObject["time_zone"]?.stringValue == zone)

            let inUTC = try await client.request("LOG", ["activity": "pushups", "at": .string(TestTime.utc(at)), "id": "k1"])
            #expect(Self.day(of: inUTC) == local, "\(inUTC)")
            // The offset `at` is written with does not matter, only the user's zone.
            let inHonolulu = try await client.request(
                "LOG", ["activity": "pushups", "at": .string(TestTime.withOffset(at.addingTimeInterval(60), minutesEast: -600)), "id": "k2"])
            #expect(Self.day(of: inHonolulu) == local, "\(inHonolulu)")

            let listed = try await client.request("LOGS", ["from": .string(local), "to": .string(local)])
            #expect(listed.okObject["logs"]?.arrayValue?.count == 2, "LOGS filters by local days: \(listed)")
        }
        #expect(try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.logs WHERE user_id = $1::bigint AND day = $2::date", [.text(user.id.description), .text(local)]) == 2)
    }

    @Test func aUserInNewfoundlandLogsOnThePreviousLocalDate() async throws {
        let zone = "America/St_Johns"
        let user = try await LaurelTestDatabase.createUser("stjohns", timeZone: zone)
        // 01:00 UTC is 21:30 or 22:30 the evening before in St. John's (UTC-3:30, UTC-2:30 in summer).
        let at = TestTime.utcDay(offsetBy: -2, hour: 1)
        let local = TestTime.localDay(of: at, in: zone)
        #expect(local == TestTime.localDay(of: at.addingTimeInterval(-86_400), in: "UTC"))
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let answer = try await client.request("LOG", ["activity": "plank", "amount": 90, "at": .string(TestTime.utc(at)), "id": "n1"])
            #expect(Self.day(of: answer) == local, "\(answer)")

            // Three hours later it is past midnight there: the next local day.
            let later = try await client.request(
                "LOG", ["activity": "plank", "at": .string(TestTime.utc(at.addingTimeInterval(3 * 3600))), "id": "n2"])
            #expect(Self.day(of: later) == TestTime.localDay(of: at.addingTimeInterval(3 * 3600), in: zone))
            #expect(Self.day(of: later) != local)

            let profile = try await client.request("PROFILE")
            #expect(profile.okObject["totals"]?.objectValue?["active_days"]?.intValue == 2)
        }
    }

    @Test func changingTheTimeZoneDoesNotMoveEarlierLogs() async throws {
        let zone = "Pacific/Kiritimati"
        let user = try await LaurelTestDatabase.createUser("zone-change", timeZone: zone)
        let at = TestTime.utcDay(offsetBy: -4, hour: 12)
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let before = try await client.request("LOG", ["activity": "squats", "at": .string(TestTime.utc(at)), "id": "z1"])
            #expect(Self.day(of: before) == TestTime.localDay(of: at, in: zone))

            #expect(try await client.request("SETTINGS", ["time_zone": "UTC"]).okObject["time_zone"]?.stringValue == "UTC")
            let after = try await client.request("LOG", ["activity": "squats", "at": .string(TestTime.utc(at)), "id": "z2"])
            #expect(Self.day(of: after) == TestTime.localDay(of: at, in: "UTC"), "new logs use the new zone")

            let logs = try await client.request("LOGS")
            let days = Dictionary(uniqueKeysWithValues: (logs.okObject["logs"]?.arrayValue ?? []).compactMap { log -> (String, String)? in
                guard let object = log.objectValue, let id = object["id"]?.stringValue, let day = object["day"]?.stringValue else { return nil }
                return (id, day)
            })
            #expect(days == ["z1": TestTime.localDay(of: at, in: zone), "z2": TestTime.localDay(of: at, in: "UTC")])
        }
    }

    @Test func aLogWithoutAtFallsOnTodayInTheUsersZone() async throws {
        let zone = "Pacific/Kiritimati"
        let user = try await LaurelTestDatabase.createUser("today", timeZone: zone)
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let before = TestTime.localDay(of: Date(), in: zone)
            let answer = try await client.request("LOG", ["activity": "lunges"])
            let after = TestTime.localDay(of: Date(), in: zone)
            let day = try #require(Self.day(of: answer))
            #expect(day == before || day == after)
        }
    }
}
