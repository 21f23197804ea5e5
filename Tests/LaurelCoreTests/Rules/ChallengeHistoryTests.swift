import LaurelCore
import LaurelTestSupport
import Testing

/// The chooser's history as the user's running state gives it: only what lies before the period counts.
@Suite struct ChallengeHistoryTests {
    typealias F = ChallengeFixture

    static func history(_ facts: ProgressFacts, before start: LocalDay = F.tuesday) -> ChallengeHistory {
        Fixture.accumulate(facts).challengeHistory(before: start, currentStreak: 2, liveActivities: F.standfitActivities)
    }

    @Test func theLastFourteenActiveDaysBeforeThePeriod() {
        // Every other day for 40 days before the 24th, and logs on and after it that must not count.
        let days = (1...20).map { F.tuesday.adding(days: -2 * $0).description }
        let logs = Fixture.logs(on: days + ["2026-11-24", "2026-11-25"])
        let history = Self.history(ProgressFacts(logs: logs))
        #expect(history.activeDays.count == 14)
        #expect(history.activeDays.map(\.day) == days.prefix(14).reversed().map(Fixture.day), "oldest first")
        #expect(history.currentStreak == 2 && history.liveActivities.count == 4)
    }

    @Test func eachDaysFigures() {
        let logs = [
            Fixture.log("a", "squats", 10, "2026-11-20", 9), Fixture.log("b", "squats", 5, "2026-11-20", 10),
            Fixture.log("c", "plank", 60, "2026-11-20", 11),
        ]
        let lessons = [
            LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2026-11-20")),
            LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2026-11-21")),
            LessonCompletion(lesson: "basics-2", category: "basics", day: Fixture.day("2026-11-22")),
        ]
        let history = Self.history(ProgressFacts(logs: logs, lessons: lessons))
        #expect(history.activeDays == [
            ChallengeHistory.Day(
                day: Fixture.day("2026-11-20"), logs: 3, amounts: ["squats": 15, "plank": 60], logsByActivity: ["squats": 2, "plank": 1],
                lessons: 1),
            ChallengeHistory.Day(day: Fixture.day("2026-11-21"), logs: 0, amounts: [:], logsByActivity: [:], lessons: 1),
            ChallengeHistory.Day(day: Fixture.day("2026-11-22"), logs: 0, amounts: [:], logsByActivity: [:], lessons: 1),
        ], "a repeated lesson makes its day active too (practice)")
    }

    @Test func activeDaysOfThePreviousISOWeek() {
        // The week before the week of Tuesday 2026-11-24 runs from Monday the 16th to Sunday the 22nd.
        let logs = Fixture.logs(on: ["2026-11-15", "2026-11-16", "2026-11-16", "2026-11-19", "2026-11-22", "2026-11-23"])
        #expect(Self.history(ProgressFacts(logs: logs)).activeDaysPreviousWeek == 3)
        #expect(Self.history(ProgressFacts(logs: logs), before: F.monday).activeDaysPreviousWeek == 3)
        #expect(Self.history(ProgressFacts(logs: logs), before: Fixture.day("2026-11-30")).activeDaysPreviousWeek == 1)
    }

    @Test func recentActivitiesAreThoseOfTheFourteenDaysBefore() {
        let logs = [
            Fixture.log("a", "squats", 1, "2026-11-09"),  // 15 days before: too old
            Fixture.log("b", "plank", 1, "2026-11-10"),  // 14 days before
            Fixture.log("c", "pushups", 1, "2026-11-23"),
            Fixture.log("d", "lunges", 1, "2026-11-24"),  // the period itself
        ]
        #expect(Self.history(ProgressFacts(logs: logs)).recentActivities == ["plank", "pushups"])
    }

    /// The activities logged in a span, whether the running state finds them by the span's days or by the days it
    /// holds (fewer days held than the span has), and whether those days are settled or recent: as the logs say.
    @Test(arguments: 0..<100)
    func activitiesLoggedInASpanAreThoseTheLogsSay(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let first = Fixture.day("2026-09-01")
        let activities = ["squats", "plank", "pushups", "lunges"]
        // Each activity logged on a few or on many of 80 days, in any order (backfills settle days out of order).
        let logs = activities.flatMap { activity in
            let often = 1 + random.below(4)
            return (0..<80).filter { _ in random.below(8) < often * often / 2 }.map { offset in
                Fixture.log("\(activity)-\(offset)", activity, 1, first.adding(days: offset).description)
            }
        }.shuffled(using: &random)
        let accumulator = Fixture.accumulate(ProgressFacts(logs: logs))
        for _ in 0..<20 {
            let start = first.adding(days: random.below(90) - 5)
            let span = start...start.adding(days: random.below(40))
            let expected = Set(logs.filter { span.contains($0.day) }.map(\.activity))
            #expect(accumulator.activitiesLogged(on: span) == expected, "\(span)")
        }
    }
}
