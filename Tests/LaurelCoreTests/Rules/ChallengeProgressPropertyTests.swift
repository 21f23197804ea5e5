import Foundation
import LaurelCore
import LaurelTestSupport
import Testing

/// Challenge progress is counted from the running state's per-day figures; for random facts it must equal a plain
/// count over the facts themselves, for every kind, whether the state was built log by log or at once.
@Suite struct ChallengeProgressPropertyTests {
    private static let activities = ["squats", "pushups", "lunges", "meditation"]

    @Test(arguments: 0..<100)
    func progressAgreesWithACountOverTheFacts(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let week = (0..<7).map { ChallengeFixture.monday.adding(days: $0) }
        var facts = ProgressFacts()
        var accumulator = ProgressAccumulator()
        for index in 0..<Int.random(in: 0...40, using: &random) {
            if Int.random(in: 0..<8, using: &random) == 0 {
                let lesson = LessonCompletion(lesson: "basics-\(index % 3)", category: "basics", day: week.randomElement(using: &random)!)
                facts.lessons.append(lesson)
                accumulator.record(lesson, settings: StreakSettingsHistory())
                continue
            }
            let log = LoggedFact(
                id: "log-\(index)", activity: Self.activities.randomElement(using: &random)!, amount: Int.random(in: 1...60, using: &random),
                at: Date(timeIntervalSince1970: 0), day: week.randomElement(using: &random)!, localHour: Int.random(in: 0...23, using: &random))
            facts.logs.append(log)
            accumulator.record(log, neighbours: [], settings: StreakSettingsHistory())
            for challenge in Self.challenges(on: week, using: &random) {
                #expect(ChallengeProgress.progress(of: challenge, in: accumulator) == Self.count(challenge, facts), "\(challenge)")
            }
        }
        let rebuilt = ProgressAccumulator(rebuildingFrom: facts, settings: StreakSettingsHistory(), speedWindows: [])
        for challenge in Self.challenges(on: week, using: &random) {
            #expect(ChallengeProgress.progress(of: challenge, in: rebuilt) == Self.count(challenge, facts), "\(challenge)")
        }
    }

    /// rules.md's counts, over the facts of the challenge's days, capped at the target.
    private static func count(_ challenge: ChallengeChoice, _ facts: ProgressFacts) -> Int {
        let logs = facts.logs.filter { challenge.days.contains($0.day) }
        let counted = logs.filter { log in challenge.activity.map { $0 == log.activity } ?? true }
        let lessonDays = facts.lessons.map(\.day).filter { challenge.days.contains($0) }
        let value: Int
        switch challenge.kind {
        case .logsToday, .sessionsToday: value = counted.count
        case .amountToday, .minutesToday: value = counted.reduce(0) { $0 + $1.amount }
        case .distinctToday: value = Set(logs.map(\.activity)).count
        case .beforeHour: value = logs.contains { $0.localHour < (challenge.hour ?? 0) } ? 1 : 0
        case .keepStreak: value = logs.isEmpty && lessonDays.isEmpty ? 0 : 1
        case .lessonToday: value = lessonDays.isEmpty ? 0 : 1
        case .activeDaysWeek: value = Set(logs.map(\.day) + lessonDays).count
        }
        return min(value, challenge.target)
    }

    /// One challenge of each kind, daily ones on a random day of the week, with and without an activity, targets
    /// high enough not to cap most counts.
    private static func challenges(on week: [LocalDay], using random: inout SeededRandom) -> [ChallengeChoice] {
        let kinds: [ChallengeKind] = [
            .logsToday, .amountToday, .distinctToday, .beforeHour, .keepStreak, .sessionsToday, .minutesToday, .lessonToday,
        ]
        var challenges = kinds.map { kind in
            ChallengeChoice(
                slot: 0, kind: kind, period: .daily, periodStart: week.randomElement(using: &random)!, target: Int.random(in: 1...500, using: &random),
                xp: 10, title: kind.rawValue, activity: Bool.random(using: &random) ? activities.randomElement(using: &random) : nil,
                hour: kind == .beforeHour ? Int.random(in: 1...23, using: &random) : nil)
        }
        challenges.append(ChallengeChoice(
            slot: 0, kind: .activeDaysWeek, period: .weekly, periodStart: week[0], target: Int.random(in: 1...7, using: &random), xp: 100,
            title: "week"))
        return challenges
    }
}
