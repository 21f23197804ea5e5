import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// Each template type unlocks exactly at its target: one short of it unlocks nothing, reaching it unlocks in
/// that very LOG. The edges are the ones the rules draw: local midnight and the ISO week in the user's zone, the
/// closed speed window, and a rest day inside a per-activity streak.
@Suite struct TemplateThresholdTests {
    /// A premium user in `zone` with one template of `type` with one tier of `target`, on a new custom activity.
    private static func withTemplate(
        _ prefix: String, zone: String = "UTC", activity: String, type: String, target: Int, window: Int? = nil,
        _ body: @Sendable @escaping (_ app: PushRecorder, _ achievementID: String) async throws -> Void
    ) async throws {
        let user = try await LaurelTestDatabase.createUser(prefix, timeZone: zone)
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            _ = try await Templates.activity(app, activity)
            let (template, _) = try await Templates.created(
                app, Templates.create(activity, type, tiers: .array([Templates.tier("bronze", target, window: window)])))
            let achievementID = try #require(Templates.achievements(template).first?["id"]?.stringValue)
            try await body(app, achievementID)
        }
    }

    /// Logs and checks the template's progress afterwards, and whether this LOG unlocked it.
    private static func log(
        _ app: PushRecorder, _ activity: String, _ amount: Int, at: Date? = nil, achievement: String,
        progress: Int, unlocks: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> JSONObject {
        let answer = Engine.ok(try await app.request("LOG", Engine.log(activity, amount: amount, at: at)), sourceLocation: sourceLocation)
        #expect(Engine.ids(answer["unlocked"]).contains(achievement) == unlocks, "\(answer)", sourceLocation: sourceLocation)
        let state = try await Templates.achievement(app, achievement, sourceLocation: sourceLocation)
        #expect(state["progress"]?.intValue == progress, "\(state)", sourceLocation: sourceLocation)
        #expect((state["unlocked_at"] != nil) == unlocks, "\(state)", sourceLocation: sourceLocation)
        return answer["log"]?.objectValue ?? [:]
    }

    @Test func volumeUnlocksAtItsTotal() async throws {
        try await Self.withTemplate("tpl-volume", activity: "Burpees", type: "volume", target: 30) { app, id in
            _ = try await Self.log(app, "Burpees", 10, achievement: id, progress: 10, unlocks: false)
            _ = try await Self.log(app, "Burpees", 19, achievement: id, progress: 29, unlocks: false)
            _ = try await Self.log(app, "Burpees", 1, achievement: id, progress: 30, unlocks: true)
            let pushed = try await app.wait { !$0.filter { $0.kind == "UNLOCK" && $0.object["id"]?.stringValue == id }.isEmpty }
            #expect(pushed.filter { $0.kind == "UNLOCK" && $0.object["id"]?.stringValue == id }.count == 1)
        }
    }

    @Test func dailyCountsTheUsersLocalDaysAcrossMidnight() async throws {
        // Kathmandu is UTC+05:45, so its midnight falls at 18:15 UTC: the two logs either side of it share a UTC
        // date but not a local one.
        let clock = ZoneClock("Asia/Kathmandu")
        try await Self.withTemplate("tpl-daily", zone: "Asia/Kathmandu", activity: "Skips", type: "daily", target: 10) { app, id in
            let day = clock.today.adding(days: -3)
            let midnight = clock.start(of: day.next)
            #expect(TestTime.localDay(of: midnight.adding(milliseconds: -1), in: "UTC") == TestTime.localDay(of: midnight, in: "UTC"))

            let late = try await Self.log(app, "Skips", 9, at: midnight.adding(milliseconds: -1), achievement: id, progress: 9, unlocks: false)
            #expect(late["day"]?.stringValue == day.description)
            let early = try await Self.log(app, "Skips", 1, at: midnight, achievement: id, progress: 9, unlocks: false)
            #expect(early["day"]?.stringValue == day.next.description)
            // The first instant of the late log's day is the other edge; it tops that day up to the target.
            let first = try await Self.log(app, "Skips", 1, at: clock.start(of: day), achievement: id, progress: 10, unlocks: true)
            #expect(first["day"]?.stringValue == day.description)
        }
    }

    @Test func weeklyCountsISOWeeksOfTheUsersZone() async throws {
        // St John's is UTC-03:30 (-02:30 in summer): its Monday starts at 03:30 (02:30) UTC, so the log just before
        // it is already in the new week in UTC, but not for the user.
        let clock = ZoneClock("America/St_Johns")
        try await Self.withTemplate("tpl-weekly", zone: "America/St_Johns", activity: "Rows", type: "weekly", target: 10) { app, id in
            let monday = clock.today.adding(days: -7).isoWeek.monday
            let boundary = clock.start(of: monday)

            let sunday = try await Self.log(app, "Rows", 9, at: boundary.adding(milliseconds: -1), achievement: id, progress: 9, unlocks: false)
            #expect(sunday["day"]?.stringValue == monday.previous.description)
            #expect(monday.previous.weekday == .sunday)
            let mondayLog = try await Self.log(app, "Rows", 1, at: boundary, achievement: id, progress: 9, unlocks: false)
            #expect(mondayLog["day"]?.stringValue == monday.description)
            // The first instant of the week before tops it up to the target.
            let weekBefore = monday.adding(days: -7)
            let start = try await Self.log(app, "Rows", 1, at: clock.start(of: weekBefore), achievement: id, progress: 10, unlocks: true)
            #expect(start["day"]?.stringValue == weekBefore.description)
        }
    }

    @Test func speedCountsLogsExactlyAWindowApartButNotAMillisecondMore() async throws {
        try await Self.withTemplate("tpl-speed", activity: "Jumps", type: "speed", target: 10, window: 10) { app, id in
            let start = TestClock.noon(daysAgo: 2)
            let window = 10 * 60_000
            _ = try await Self.log(app, "Jumps", 6, at: start, achievement: id, progress: 6, unlocks: false)
            // 6 + 4 would be the target, but the two lie one millisecond more than the window apart.
            _ = try await Self.log(app, "Jumps", 4, at: start.adding(milliseconds: -(window + 1)), achievement: id, progress: 6, unlocks: false)
            // Exactly the window apart: they count together (the interval is closed).
            _ = try await Self.log(app, "Jumps", 3, at: start.adding(milliseconds: window), achievement: id, progress: 9, unlocks: false)
            _ = try await Self.log(app, "Jumps", 1, at: start.adding(milliseconds: window / 2), achievement: id, progress: 10, unlocks: true)
        }
    }

    @Test func aBackfilledDayThatClosesAGapCompletesAStreak() async throws {
        try await Self.withTemplate("tpl-gap", activity: "Stretches", type: "streak", target: 3) { app, id in
            _ = try await Self.log(app, "Stretches", 1, at: TestClock.noon(daysAgo: 6), achievement: id, progress: 1, unlocks: false)
            _ = try await Self.log(app, "Stretches", 1, at: TestClock.noon(daysAgo: 4), achievement: id, progress: 1, unlocks: false)
            _ = try await Self.log(app, "Stretches", 1, at: TestClock.noon(daysAgo: 3), achievement: id, progress: 2, unlocks: false)
            // Logged later, dated earlier: the day between joins the two runs into one of 4.
            _ = try await Self.log(app, "Stretches", 1, at: TestClock.noon(daysAgo: 5), achievement: id, progress: 3, unlocks: true)
        }
    }

    @Test func aPerActivityStreakSpendsNoFreezes() async throws {
        try await Self.withTemplate("tpl-freeze", activity: "Laps", type: "streak", target: 8) { app, id in
            // Seven days in a row earn the daily streak a freeze, which carries it over the missed day after them;
            // the activity's own streak has no freezes and starts again.
            for daysAgo in (6...12).reversed() {
                _ = try await Self.log(app, "Laps", 1, at: TestClock.noon(daysAgo: daysAgo), achievement: id, progress: 13 - daysAgo, unlocks: false)
            }
            for daysAgo in [4, 3] {
                _ = try await Self.log(app, "Laps", 1, at: TestClock.noon(daysAgo: daysAgo), achievement: id, progress: 7, unlocks: false)
            }
            let profile = Engine.ok(try await app.request("PROFILE"))
            #expect(profile["streak"]?.objectValue?["longest"] == 9, "the daily streak kept through the gap: \(profile)")
            _ = try await Self.log(app, "Laps", 1, at: TestClock.noon(daysAgo: 5), achievement: id, progress: 8, unlocks: true)
        }
    }

    /// A rest day counts from the day it is set, in the zone in force then, and logs can only be backfilled.
    /// So a rest day *between* two logged days needs a logged day after the day the rest day was set, which
    /// is possible only when "today" moves forward: the user sets the rest day while in Pago Pago (UTC-11) and
    /// then moves to Kiritimati (UTC+14), whose local date is always at least one day later. Logs (their day is
    /// taken in the zone in force when logging) then land on D-2, D-1 and D+1, with D, the rest day, between.
    /// The same gap a week earlier, before the rest day was set, breaks the streak of a second activity.
    @Test func aPerActivityStreakKeepsThroughARestDay() async throws {
        let west = ZoneClock("Pacific/Pago_Pago")
        let east = ZoneClock("Pacific/Kiritimati")
        try await Self.withTemplate("tpl-streak", zone: "Pacific/Pago_Pago", activity: "Swims", type: "streak", target: 3) { app, id in
            let restDay = west.today
            let weekday = restDay.weekday.name
            let set = Engine.ok(try await app.request("SETTINGS", ["rest_day": .string(weekday)]))
            #expect(set["rest_day"]?.stringValue == weekday)
            let moved = Engine.ok(try await app.request("SETTINGS", ["time_zone": "Pacific/Kiritimati"]))
            #expect(moved["rest_day"]?.stringValue == weekday)
            #expect(east.today > restDay)

            let (dips, _) = try await Templates.created(
                app, Templates.create(try await Templates.activity(app, "Dips"), "streak", tiers: .array([Templates.tier("bronze", 3)])))
            let dipsID = try #require(Templates.achievements(dips).first?["id"]?.stringValue)

            for (offset, progress) in [(-2, 1), (-1, 2)] {
                let day = restDay.adding(days: offset)
                let logged = try await Self.log(app, "Swims", 1, at: east.at(day, hour: 12), achievement: id, progress: progress, unlocks: false)
                #expect(logged["day"]?.stringValue == day.description)
            }
            let after = restDay.next
            let logged = try await Self.log(app, "Swims", 1, at: east.latestPast(on: after), achievement: id, progress: 3, unlocks: true)
            #expect(logged["day"]?.stringValue == after.description)

            // A week earlier the same weekday was no rest day yet.
            for offset in [-9, -8, -6] {
                let day = restDay.adding(days: offset)
                _ = try await Self.log(
                    app, "Dips", 1, at: east.at(day, hour: 12), achievement: dipsID, progress: offset == -6 ? 2 : offset + 10, unlocks: false)
            }
            #expect(try await Templates.achievement(app, dipsID)["unlocked_at"] == nil)
        }
    }
}
