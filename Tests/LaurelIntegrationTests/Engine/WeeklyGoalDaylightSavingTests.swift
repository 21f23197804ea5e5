import Foundation
import LaurelCore
import LaurelJSON
import LaurelServer
import Testing

/// Weeks across a daylight-saving change, over real sockets and PostgreSQL. The server's clock is set a few days
/// after one of Berlin's next two changes (one spring, one autumn, whatever the day the test runs), so the week
/// that holds the change is in the backfill window whatever the date. Logs a few minutes either side of local
/// midnight at both ends of that week land on their local days: the week is met by its own three days, and the
/// minute after its last local midnight belongs to the next week.
@Suite struct WeeklyGoalDaylightSavingTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// The Sunday (local) of Berlin's next daylight-saving change (`later` changes after it).
    static func changeSunday(later: Int) throws -> LocalDay {
        var change = try #require(berlin.nextDaylightSavingTimeTransition(after: Date()))
        for _ in 0..<later { change = try #require(berlin.nextDaylightSavingTimeTransition(after: change)) }
        let sunday = LocalDay(of: change, in: berlin)
        #expect(sunday.weekday == .sunday)
        return sunday
    }

    /// The instant of a Berlin wall-clock reading on `day`.
    static func berlin(_ day: LocalDay, hour: Int, minute: Int) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        let parts = day.description.split(separator: "-").compactMap { Int($0) }
        return try #require(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: hour, minute: minute)))
    }

    @Test(arguments: [0, 1]) func theWeekOfAChangeKeepsItsOwnLocalDays(later: Int) async throws {
        let sunday = try Self.changeSunday(later: later)
        let changeWeek = sunday.adding(days: -6)  // its Monday
        // Wednesday of the week after the change, at noon UTC: the server's today.
        let now = TestClock.utc(sunday.adding(days: 3))
        let offsetBefore = Self.berlin.secondsFromGMT(for: try Self.berlin(changeWeek, hour: 12, minute: 0))
        let offsetAfter = Self.berlin.secondsFromGMT(for: try Self.berlin(sunday, hour: 12, minute: 0))
        #expect(offsetBefore != offsetAfter, "the week holds the change")

        let user = try await LaurelTestDatabase.createUser("weekly-dst-\(later)", timeZone: "Europe/Berlin")
        var configuration = ServerConfiguration(port: 0)
        configuration.clock = .starting(at: now)
        let clock = configuration.clock
        try await TestServer.run(configuration: configuration) { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            // The week before the change: Monday to Wednesday at noon.
            for weekday in 0..<3 {
                Engine.ok(try await client.request("LOG", Engine.log("squats", at: try Self.berlin(changeWeek.adding(days: weekday - 7), hour: 12, minute: 0))))
            }
            // The change's week: Monday 00:10 (still Sunday in UTC), Saturday noon and Sunday 23:50 (at the offset
            // after the change).
            let edges: [(LocalDay, Int, Int)] = [(changeWeek, 0, 10), (sunday.previous, 12, 0), (sunday, 23, 50)]
            for (index, (day, hour, minute)) in edges.enumerated() {
                let answer = Engine.ok(try await client.request(
                    "LOG", Engine.log("lunges", at: try Self.berlin(day, hour: hour, minute: minute), id: "edge-\(index)")))
                #expect(answer["log"]?["day"]?.stringValue == day.description, "edge \(index)")
            }
            // Ten minutes after the change week's last local midnight: Monday of the current week.
            let monday = Engine.ok(try await client.request(
                "LOG", Engine.log("plank", at: try Self.berlin(sunday.next, hour: 0, minute: 10), id: "next-monday")))
            #expect(monday["log"]?["day"]?.stringValue == sunday.next.description)

            let profile = Engine.ok(try await client.request("PROFILE"))
            #expect(profile["weekly_streak"] == [
                "goal": 3, "current": 2, "longest": 2, "this_week": 1, "met": false, "at_risk": false,
            ])
            // Without its first minutes the change's week has two days: the streak starts again after it.
            Engine.ok(try await client.request("LOG.DELETE", ["id": "edge-0"]))
            let broken = Engine.ok(try await client.request("PROFILE"))
            #expect(broken["weekly_streak"]?["current"] == 0)
            #expect(broken["weekly_streak"]?["longest"] == 1)
            let standfit = WeeklyGoalTests.standfit
            try await RecomputedProgress.read(user, zone: Self.berlin, catalog: standfit, now: clock.now)
                .expectAgreement(with: client.client, catalog: standfit, "daylight saving")
        }
    }
}
