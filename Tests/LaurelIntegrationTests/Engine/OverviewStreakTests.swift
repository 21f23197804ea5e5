import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// `laurel.user_overview.current_streak` is the streak today, not the figure of the user's last evaluation: days
/// that pass without activity break it as the streak rules say (a rest day or a vacation keeps it, a freeze covers a
/// day), with nobody connected to evaluate anything. Days are made to pass by moving the user's zone a day east
/// behind the server's back: Etc/GMT+12 (UTC-12) to Etc/GMT-12 (UTC+12) is always exactly one calendar day later.
@Suite struct OverviewStreakTests {
    static let west = ZoneClock("Etc/GMT+12")

    /// One user and the streak expected once the day after today has come.
    struct Case: Sendable {
        var user: TestUser
        var label: String
        var streakNow: Int
        var streakTomorrow: Int
        /// What the engine stores as the last day the streak holds (nil: for good).
        var holdsThrough: LocalDay?
    }

    static func holdsThrough(_ user: TestUser) async throws -> LocalDay? {
        try await LaurelTestDatabase.scalar(
            "SELECT to_char(streak_holds_through, 'YYYY-MM-DD') FROM laurel.progress WHERE user_id = $1::bigint",
            [.int(Int(user.id.rawValue))]
        ).flatMap { LocalDay($0) }
    }

    static func overviewStreak(_ user: TestUser) async throws -> Int? {
        try await LaurelTestDatabase.admin().withConnection { connection in
            try connection.query("SELECT current_streak FROM laurel.user_overview WHERE name = $1::text", [.text(user.name)]).first?
                .optionalInt("current_streak")
        }
    }

    /// Logs one exercise at noon on each of these local days (counted back from today).
    static func logged(_ client: LineClient, daysAgo: [Int], today: LocalDay) async throws {
        for days in daysAgo {
            Engine.ok(try await client.request("LOG", Engine.log("squats", at: west.at(today.adding(days: -days), hour: 12))))
        }
    }

    @Test func theOverviewsStreakFallsAsDaysPassWithoutActivity() async throws {
        // The view reads the database's clock and the server its own: both must stay in one day of the zone from
        // the first LOG to the last PROFILE (a run across UTC noon, the zone's midnight, read the day after next).
        try await Self.west.waitForRoomInToday(.seconds(300))
        let today = Self.west.today
        let cases = try await TestServer.run { port -> [Case] in
            var cases: [Case] = []
            // Active yesterday: today is at risk, tomorrow it is broken.
            let plain = try await LaurelTestDatabase.createUser("overview-streak", timeZone: "Etc/GMT+12")
            try await Self.logged(try await LineClient.authenticated(port: port, token: plain.token), daysAgo: [1], today: today)
            cases.append(Case(user: plain, label: "no rest", streakNow: 1, streakTomorrow: 0, holdsThrough: today))

            // Today is the rest day: it keeps the streak, so tomorrow is only at risk.
            let resting = try await LaurelTestDatabase.createUser("overview-rest", timeZone: "Etc/GMT+12")
            let restingClient = try await LineClient.authenticated(port: port, token: resting.token)
            try await Self.logged(restingClient, daysAgo: [1], today: today)
            Engine.ok(try await restingClient.request("SETTINGS", ["rest_day": .string(today.weekday.name)]))
            cases.append(Case(user: resting, label: "rest day", streakNow: 1, streakTomorrow: 1, holdsThrough: today.next))

            // On vacation nothing breaks it.
            let away = try await LaurelTestDatabase.createUser("overview-vacation", timeZone: "Etc/GMT+12")
            let awayClient = try await LineClient.authenticated(port: port, token: away.token)
            try await Self.logged(awayClient, daysAgo: [1], today: today)
            Engine.ok(try await awayClient.request("SETTINGS", ["vacation": true]))
            cases.append(Case(user: away, label: "vacation", streakNow: 1, streakTomorrow: 1, holdsThrough: nil))

            // Seven days earn a freeze, which covers today.
            let frozen = try await LaurelTestDatabase.createUser("overview-freeze", timeZone: "Etc/GMT+12")
            try await Self.logged(try await LineClient.authenticated(port: port, token: frozen.token), daysAgo: Array(1...7), today: today)
            cases.append(Case(user: frozen, label: "freeze in hand", streakNow: 7, streakTomorrow: 7, holdsThrough: today.next))

            // The freeze went on yesterday already: tomorrow it is broken.
            let spent = try await LaurelTestDatabase.createUser("overview-spent", timeZone: "Etc/GMT+12")
            try await Self.logged(try await LineClient.authenticated(port: port, token: spent.token), daysAgo: Array(2...8), today: today)
            cases.append(Case(user: spent, label: "freeze spent", streakNow: 7, streakTomorrow: 0, holdsThrough: today))

            for check in cases {
                #expect(try await Self.overviewStreak(check.user) == check.streakNow, "\(check.label), today")
                #expect(try await Self.holdsThrough(check.user) == check.holdsThrough, "\(check.label): stored")
            }
            return cases
        }
        try #require(Self.west.today == today, "the day changed while the test ran")

        for check in cases {
            try await LaurelTestDatabase.scalar(
                """
                UPDATE laurel.settings SET time_zone = 'Etc/GMT-12'
                 WHERE id = (SELECT max(id) FROM laurel.settings WHERE user_id = $1::bigint)
                """, [.int(Int(check.user.id.rawValue))])
            #expect(try await Self.overviewStreak(check.user) == check.streakTomorrow, "\(check.label), tomorrow")
        }
        // The server, reading the moved zone, shows the same streak.
        try await TestServer.run { port in
            for check in cases {
                let client = try await LineClient.authenticated(port: port, token: check.user.token)
                let profile = Engine.ok(try await client.request("PROFILE"))
                #expect(profile["streak"]?["current"]?.intValue == check.streakTomorrow, "\(check.label): PROFILE tomorrow")
            }
        }
    }
}
