import LaurelCore
import Testing

/// Targets adapt: N = clamp(round(1.2 × median of the user's per-day figure), min, max), the default with fewer
/// than three active days; weekly N = clamp(previous week's active days + 1, 2, 7), default 3.
@Suite struct ChallengeTargetTests {
    typealias F = ChallengeFixture

    /// Days whose per-day log counts are `counts`.
    static func logDays(_ counts: [Int]) -> [ChallengeHistory.Day] {
        F.days(counts.map { ["squats": $0 * 10] }).enumerated().map { offset, day in
            var day = day
            (day.logs, day.logsByActivity) = (counts[offset], ["squats": counts[offset]])
            return day
        }
    }

    @Test(arguments: [
        ([5, 5, 5], 6),  // 6.0
        ([4, 5, 6], 6),  // 1.2 × 5 = 6
        ([2, 3, 4, 5], 4),  // median 3.5, 4.2
        ([2, 3, 3, 9], 4),  // median 3, 3.6
        ([4, 5, 1, 9], 5),  // unsorted; median 4.5, 5.4
        ([7, 8, 1, 10], 9),  // median 7.5, 9.0
        ([10, 11, 12], 13),  // 13.2
        ([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], 11),  // median 9.5, 11.4
    ])
    func logsTodayIsTheMedianPushedAFifth(counts: [Int], target: Int) {
        #expect(F.only(F.logsToday, F.history(Self.logDays(counts)))?.target == target)
    }

    @Test func roundingIsHalfAwayFromZero() {
        // Medians are whole or halves, so 1.2 × median never ends in exactly .5; what shows is rounding to the
        // nearest, from the two middle values' mean.
        let entry = ChallengePoolEntry(kind: .logsToday, title: "t", min: 1, max: 100, defaultTarget: 1, xp: 1)
        #expect(F.only(entry, F.history(Self.logDays([2, 3, 2, 3])))?.target == 3)
        #expect(F.only(entry, F.history(Self.logDays([0, 1, 0, 1])))?.target == 1)
        #expect(F.only(entry, F.history(Self.logDays([0, 0, 0, 1])))?.target == 1, "0 is clamped to min 1")
        #expect(F.only(entry, F.history(Self.logDays([6, 6, 7, 7])))?.target == 8, "1.2 × 6.5 = 7.8")
        #expect(F.only(entry, F.history(Self.logDays([1, 1, 2, 2])))?.target == 2, "1.2 × 1.5 = 1.8")
    }

    @Test func theFormulaOnItsOwn() {
        #expect(ChallengeTarget.daily(figures: [3, 1, 2], entry: F.logsToday) == 2)
        #expect(ChallengeTarget.daily(figures: [10, 10], entry: F.logsToday) == 5)
        #expect(ChallengeTarget.daily(figures: [10, 10, 10], entry: F.keepStreak) == 1)
        #expect(ChallengeTarget.weekly(history: F.history(F.days([[:], [:], [:]]), previousWeek: 4), entry: F.activeDaysWeek) == 5)
    }

    @Test func clampedToTheEntrysBounds() {
        #expect(F.only(F.logsToday, F.history(Self.logDays([1, 1, 1])))?.target == 2, "1.2 rounds to 1, min is 2")
        #expect(F.only(F.logsToday, F.history(Self.logDays([40, 50, 60])))?.target == 30, "1.2 × 50 = 60, above max 30")
    }

    @Test func theDefaultWithFewerThanThreeActiveDays() {
        #expect(F.only(F.logsToday, F.history(Self.logDays([20, 20])))?.target == 5)
        #expect(F.only(F.logsToday, F.history([]))?.target == 5)
        #expect(F.only(F.logsToday, F.history(Self.logDays([20, 20, 20])))?.target == 24)
    }

    @Test func amountTodayIsTheActivitysOwnMedianOverTheDaysItWasLogged() {
        let days = F.days([["squats": 10], ["pushups": 99], ["squats": 30], ["pushups": 5, "squats": 20], ["lunges": 1]])
        let squats = F.only(F.amountToday, F.history(days, live: [F.standfitActivities[0]], recent: ["squats"]))
        #expect(squats?.activity == "squats")
        #expect(squats?.target == 24, "median of 10, 30, 20 is 20; the days without squats do not count")
        let fewer = F.days([["squats": 100], ["pushups": 99], ["squats": 300], ["lunges": 1]])
        #expect(F.only(F.amountToday, F.history(fewer, live: [F.standfitActivities[0]]))?.target == 20, "logged on 2 days: default")
        let huge = F.days(Array(repeating: ["squats": 5000], count: 3))
        #expect(F.only(F.amountToday, F.history(huge, live: [F.standfitActivities[0]]))?.target == 1000)
        let tiny = F.days(Array(repeating: ["squats": 1], count: 3))
        #expect(F.only(F.amountToday, F.history(tiny, live: [F.standfitActivities[0]]))?.target == 5)
    }

    @Test func distinctTodayCountsTheActivitiesOfEachDay() {
        let days = F.days([["squats": 1, "pushups": 1, "lunges": 1], ["squats": 1, "pushups": 1], ["squats": 1, "pushups": 1, "lunges": 1]])
        #expect(F.only(F.distinctToday, F.history(days))?.target == 4, "1.2 × 3 = 3.6")
        let one = F.days(Array(repeating: ["squats": 1], count: 3))
        #expect(F.only(F.distinctToday, F.history(one))?.target == 2, "min 2")
    }

    @Test func namedActivityFiguresCountOnlyThatActivity() {
        let days = [
            F.day("2026-11-20", ["meditation": 20, "yoga": 60], logs: ["meditation": 2, "yoga": 3]),
            F.day("2026-11-21", ["meditation": 10], logs: ["meditation": 1]),
            F.day("2026-11-22", ["yoga": 60], logs: ["yoga": 4]),
            F.day("2026-11-23", [:], logs: [:], lessons: 1),
        ]
        let live = [F.meditation, Activity(id: "yoga", name: "Yoga", unit: .minutes, custom: true)]
        // Meditation minutes per active day: 20, 10, 0, 0 → median 5 → 6.
        #expect(F.only(F.minutesToday, F.history(days, live: live))?.target == 6)
        // Meditation sessions per active day: 2, 1, 0, 0 → median 0.5 → 0.6 → 1.
        #expect(F.only(F.sessionsToday, F.history(days, live: live))?.target == 1)
        var unnamed = F.minutesToday
        unnamed.activity = nil
        // All minutes per active day: 80, 10, 60, 0 → median 35 → 42.
        #expect(F.only(unnamed, F.history(days, live: live))?.target == 42)
        var allSessions = F.sessionsToday
        allSessions.activity = nil
        // All logs per active day: 5, 1, 4, 0 → median 2.5 → 3.
        #expect(F.only(allSessions, F.history(days, live: live))?.target == 3)
    }

    @Test(arguments: [(0, 2), (1, 2), (2, 3), (3, 4), (6, 7), (7, 7)])
    func weeklyIsThePreviousWeekPlusOne(previousWeek: Int, target: Int) {
        let days = F.days(Array(repeating: ["squats": 1], count: 3))
        #expect(F.only(F.activeDaysWeek, F.history(days, previousWeek: previousWeek))?.target == target)
    }

    @Test func weeklyDefaultsToThreeWithFewerThanThreeActiveDays() {
        #expect(F.only(F.activeDaysWeek, F.history(F.days([["squats": 1], ["squats": 1]]), previousWeek: 2))?.target == 3)
    }

    @Test func kindsWithoutAnAdaptiveTargetHaveTargetOne() {
        let days = F.days(Array(repeating: ["squats": 50], count: 5))
        for entry in [F.beforeHour, F.keepStreak, F.lessonToday] {
            #expect(F.only(entry, F.history(days), hour: 3)?.target == 1, "\(entry.kind)")
        }
    }
}
