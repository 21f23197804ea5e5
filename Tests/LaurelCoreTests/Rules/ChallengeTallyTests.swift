import Foundation
import LaurelCore
import Testing

/// A session counts challenge progress from a per-day tally of the week it adds each LOG to; the tally must agree
/// with `ChallengeProgress` counting over the facts themselves, for every kind, whole or built up log by log.
@Suite struct ChallengeTallyTests {
    private static let activities = ["squats", "pushups", "lunges", "meditation"]

    @Test(arguments: 0..<100)
    func theTallyAgreesWithACountOverTheFacts(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        let week = (0..<7).map { ChallengeFixture.monday.adding(days: $0) }
        var facts = ChallengePeriodFacts()
        var tally = ChallengeTally()
        for index in 0..<Int.random(in: 0...40, using: &random) {
            if Int.random(in: 0..<8, using: &random) == 0 {
                let day = week.randomElement(using: &random)!
                facts.lessonDays.append(day)
                tally.addLesson(on: day)
                continue
            }
            let log = LoggedFact(
                id: "log-\(index)", activity: Self.activities.randomElement(using: &random)!, amount: Int.random(in: 1...60, using: &random),
                at: Date(timeIntervalSince1970: 0), day: week.randomElement(using: &random)!, localHour: Int.random(in: 0...23, using: &random))
            for challenge in Self.challenges(on: week, using: &random) {
                #expect(tally.progress(of: challenge, adding: log) == ChallengeProgress.progress(
                    of: challenge, in: ChallengePeriodFacts(logs: facts.logs + [log], lessonDays: facts.lessonDays)), "\(challenge)")
            }
            facts.logs.append(log)
            tally.add(log)
        }
        #expect(tally == ChallengeTally(facts), "built up log by log or at once, the same tally")
        for challenge in Self.challenges(on: week, using: &random) {
            #expect(tally.progress(of: challenge) == ChallengeProgress.progress(of: challenge, in: facts), "\(challenge)")
        }
        let wednesday = week[2]
        #expect(tally.activeDays(before: wednesday) == Set((facts.logs.map(\.day) + facts.lessonDays).filter { $0 < wednesday }).count)
    }

    /// One challenge of each kind, daily ones on a random day of the week, with and without an activity, targets
    /// high enough not to cap most counts.
    private static func challenges(on week: [LocalDay], using random: inout SeededGenerator) -> [ChallengeChoice] {
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
