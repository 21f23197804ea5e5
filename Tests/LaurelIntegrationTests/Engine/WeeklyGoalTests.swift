import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// The weekly goal streak over real sockets and PostgreSQL: weeks met by backfilled logs, the goal a setting with
/// history, `GOAL` pushed once a week, deletions lowering the figures but never an unlock, rest days counting and a
/// vacation day keeping a missed week; PROFILE always equal to a recomputation from the stored rows.
@Suite struct WeeklyGoalTests {
    static let standfit = try! ShippedCatalogs.load("standfit")

    /// The servers' clock, at noon of the day the test began: weeks are counted from one "today" at any hour.
    let clock = TestClock.middayClock()

    var today: LocalDay { TestClock.day(of: clock) }

    /// A server on the test's clock.
    func run(_ body: @Sendable (_ port: Int) async throws -> Void) async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.clock = clock
        try await TestServer.run(configuration: configuration, body)
    }

    /// The recomputation of the user's figures as of the test's clock.
    func recomputed(_ user: TestUser, zone: TimeZone = TestClock.utc) async throws -> RecomputedProgress {
        try await RecomputedProgress.read(user, zone: zone, catalog: Self.standfit, now: clock.now)
    }

    /// Noon UTC on `weekday` (0 = Monday) of the ISO week `weeksAgo` weeks before today's.
    func noon(weeksAgo: Int, weekday: Int) -> Date {
        TestClock.utc(today.monday.adding(days: weekday - 7 * weeksAgo))
    }

    static func weekly(_ profile: JSONObject) -> (goal: Int, current: Int, longest: Int, thisWeek: Int, met: Bool) {
        let streak = profile["weekly_streak"]
        return (streak?["goal"]?.intValue ?? -1, streak?["current"]?.intValue ?? -1, streak?["longest"]?.intValue ?? -1,
                streak?["this_week"]?.intValue ?? -1, streak?["met"]?.boolValue ?? false)
    }

    @Test func metWeeksBuildTheStreakAndGoalIsPushedOnceAWeek() async throws {
        let user = try await LaurelTestDatabase.createUser("weekly-goal")
        try await run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            // From today the goal is one day a week; the weeks before today keep the default goal of three.
            #expect(Engine.ok(try await client.request("SETTINGS", ["weekly_goal": 1]))["weekly_goal"] == 1)
            var ids: [Int: [String]] = [:]
            for weeksAgo in 1...3 {
                for weekday in 0..<3 {
                    let id = "w\(weeksAgo)-\(weekday)"
                    Engine.ok(try await client.request("LOG", Engine.log("squats", at: noon(weeksAgo: weeksAgo, weekday: weekday), id: id)))
                    ids[weeksAgo, default: []].append(id)
                }
            }
            let before = Engine.ok(try await client.request("PROFILE"))
            #expect(Self.weekly(before) == (1, 3, 3, 0, false))
            #expect(before["weekly_streak"]?["at_risk"] == false)

            // Today's first log meets this week: the fourth week in a row.
            let met = Engine.ok(try await client.request("LOG", Engine.log("pushups", id: "today-1")))
            #expect(Engine.ids(met["unlocked"]).contains("goal_getter_4"))
            let pushes = try await client.wait { $0.contains { $0.kind == "GOAL" } }
            let goal = try #require(pushes.first { $0.kind == "GOAL" })
            #expect(goal.object["week"]?.stringValue == today.isoWeek.description)
            #expect(goal.object["weekly_streak"] == [
                "goal": 1, "current": 4, "longest": 4, "this_week": 1, "met": true, "at_risk": false,
            ])

            // More logs, a deletion that unmeets the week and a log that meets it again: no second GOAL this week.
            Engine.ok(try await client.request("LOG", Engine.log("pushups", id: "today-2")))
            Engine.ok(try await client.request("LOG.DELETE", ["id": "today-1"]))
            Engine.ok(try await client.request("LOG.DELETE", ["id": "today-2"]))
            #expect(Self.weekly(Engine.ok(try await client.request("PROFILE"))) == (1, 3, 3, 0, false))
            Engine.ok(try await client.request("LOG", Engine.log("lunges", id: "today-3")))
            try await client.settle()
            #expect(client.pushes("GOAL").count == 1)

            // A deleted log breaks the week two weeks ago (two days of three): the figures follow, the unlock stays.
            Engine.ok(try await client.request("LOG.DELETE", ["id": .string(ids[2]![0])]))
            let broken = Engine.ok(try await client.request("PROFILE"))
            #expect(Self.weekly(broken) == (1, 2, 2, 1, true))
            let unlock = Engine.ok(try await client.request("ACHIEVEMENT", ["id": "goal_getter_4"]))
            #expect(unlock["unlocked_at"] != nil)
            #expect(unlock["progress"]?.intValue == 2)
            try await recomputed(user)
                .expectAgreement(with: client.client, catalog: Self.standfit, "weekly goal")
        }
    }

    @Test func aRestDayCountsTowardTheGoalAndIsPushedAtTheChange() async throws {
        let user = try await LaurelTestDatabase.createUser("weekly-rest")
        try await run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            Engine.ok(try await client.request("LOG", Engine.log("squats", at: noon(weeksAgo: 1, weekday: 2))))
            #expect(Self.weekly(Engine.ok(try await client.request("PROFILE"))) == (3, 0, 0, 0, false))
            // Today becomes the rest day and one day is the goal: today counts, the week is met without a log.
            let changed = Engine.ok(try await client.request(
                "SETTINGS", ["rest_day": .string(today.weekday.name), "weekly_goal": 1]))
            #expect(changed["weekly_goal"] == 1)
            let pushes = try await client.wait { $0.contains { $0.kind == "GOAL" } }
            #expect(pushes.first { $0.kind == "GOAL" }?.object["weekly_streak"]?["this_week"] == 1)
            #expect(Self.weekly(Engine.ok(try await client.request("PROFILE"))) == (1, 1, 1, 1, true))
            // A log on the rest day counts once.
            Engine.ok(try await client.request("LOG", Engine.log("squats")))
            #expect(Self.weekly(Engine.ok(try await client.request("PROFILE"))).thisWeek == 1)
            try await recomputed(user)
                .expectAgreement(with: client.client, catalog: Self.standfit, "rest day")
        }
    }

    /// A move from Kiritimati (UTC+14) to Pago Pago (UTC-11) puts today's log a day or two after the new today: it
    /// stays on its own day and week, and counts for no week until that day comes.
    @Test func aMoveWestLeavesTodaysLogAheadOfToday() async throws {
        let user = try await LaurelTestDatabase.createUser("weekly-move", timeZone: "Pacific/Kiritimati")
        let pagoPago = TimeZone(identifier: "Pacific/Pago_Pago")!
        try await run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let logged = Engine.ok(try await client.request("LOG", Engine.log("squats", id: "ahead")))
            Engine.ok(try await client.request("LOG", Engine.log("squats", at: clock.now.addingTimeInterval(-8 * 86_400))))
            Engine.ok(try await client.request("SETTINGS", ["time_zone": "Pacific/Pago_Pago"]))
            let day = try #require(logged["log"]?["day"]?.stringValue.flatMap(LocalDay.init))
            #expect(day > LocalDay(of: clock.now, in: pagoPago))
            let profile = Engine.ok(try await client.request("PROFILE"))
            #expect(Self.weekly(profile).thisWeek == 0)
            try await recomputed(user, zone: pagoPago)
                .expectAgreement(with: client.client, catalog: Self.standfit, "moved west")
        }
    }

    /// Two weeks ago the user was on vacation for a day (settings history written as a session would have, on that
    /// day): that week, missed, keeps the streak; without the vacation it breaks it.
    @Test func aVacationDayKeepsAMissedWeek() async throws {
        let away = try await LaurelTestDatabase.createUser("weekly-vacation")
        let home = try await LaurelTestDatabase.createUser("weekly-home")
        let pool = try await LaurelTestDatabase.admin()
        let wednesday = today.monday.adding(days: 2 - 14)
        try await pool.transaction { connection in
            for (day, vacation) in [(wednesday, true), (wednesday.next, false)] {
                _ = try connection.execute(
                    """
                    INSERT INTO laurel.settings (user_id, effective_day, time_zone, vacation)
                    VALUES ($1::bigint, $2::date, 'UTC', $3::boolean)
                    """, [.int(Int(away.id.rawValue)), .text(day.description), .bool(vacation)])
            }
        }
        try await run { port in
            for (user, expected) in [(away, (3, 2, 2, 0, false)), (home, (3, 1, 1, 0, false))] {
                let client = try await PushRecorder.authenticated(port: port, token: user.token)
                for weeksAgo in [3, 1] {
                    for weekday in 0..<3 {
                        Engine.ok(try await client.request("LOG", Engine.log("plank", at: noon(weeksAgo: weeksAgo, weekday: weekday))))
                    }
                }
                let profile = Engine.ok(try await client.request("PROFILE"))
                #expect(Self.weekly(profile) == expected, "\(user.name)")
                try await recomputed(user)
                    .expectAgreement(with: client.client, catalog: Self.standfit, user.name)
            }
        }
    }
}
