import Foundation
import LaurelCore
import Testing

/// rules.md: a day with a lesson completion is active, and a lesson counts once. A lesson completed again on a new
/// day makes that day active (practice) without counting the lesson twice, fed one by one as after a rebuild.
@Suite struct LessonPracticeRuleTests {
    static let facts = ProgressFacts(lessons: [
        LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-01")),
        LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-02")),
        LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-02")),
        LessonCompletion(lesson: "breath-1", category: "breath", day: Fixture.day("2024-05-01")),
    ])

    @Test func aRepeatedLessonMakesItsDayActiveAndCountsOnce() {
        let today = Fixture.day("2024-05-03")
        let recomputed = ProgressRecomputation(facts: Self.facts, settings: StreakSettingsHistory(), today: today, speedWindows: [])
        #expect(recomputed.measures.activeDays == 2)
        #expect(recomputed.measures.completedLessons == 2)
        #expect(recomputed.measures.lessonsByCategory == ["basics": 1, "breath": 1])
        #expect(recomputed.streak.state.current == 2)
        // 10 a lesson, 5 an active day.
        #expect(recomputed.measures.baseXP == 30)

        let accumulated = Fixture.accumulate(Self.facts)
        #expect(accumulated.measures(today: today, now: .distantFuture, settings: StreakSettingsHistory()) == recomputed.measures)
        #expect(accumulated.streak(today: today, settings: StreakSettingsHistory()) == recomputed.streak.state)
        let rebuilt = ProgressAccumulator(rebuildingFrom: Self.facts, settings: StreakSettingsHistory(), speedWindows: [])
        #expect(rebuilt.measures(today: today, now: .distantFuture, settings: StreakSettingsHistory()) == recomputed.measures)
    }

    @Test func aPracticeDayCanExtendAStreakBackwards() {
        // Completed on the 3rd, practised on the 2nd (a backfill): two days in a row.
        var accumulator = ProgressAccumulator()
        accumulator.record(LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-03")), settings: StreakSettingsHistory())
        accumulator.record(LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-02")), settings: StreakSettingsHistory())
        #expect(accumulator.activeDays == [Fixture.day("2024-05-02"), Fixture.day("2024-05-03")])
        #expect(accumulator.streak(today: Fixture.day("2024-05-03"), settings: StreakSettingsHistory()).current == 2)
        #expect(accumulator.measures.completedLessons == 1)
    }
}
