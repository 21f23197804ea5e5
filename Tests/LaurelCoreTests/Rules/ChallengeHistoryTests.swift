import LaurelCore
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
}
