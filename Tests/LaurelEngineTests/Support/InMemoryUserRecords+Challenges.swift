import Foundation
import LaurelCore
import LaurelStore

/// Challenges in memory, with the store's rules: a period is chosen once, a completion is stored once.
extension InMemoryUserRecords {
    private static func key(_ period: ChallengePeriod, _ start: LocalDay) -> String { "\(period.rawValue) \(start)" }

    func challenges(_ period: ChallengePeriod, startingOn start: LocalDay) throws -> [StoredChallenge] {
        storedChallenges[Self.key(period, start)] ?? []
    }

    func storeChallenges(_ choices: [ChallengeChoice], period: ChallengePeriod, startingOn start: LocalDay) throws -> [StoredChallenge] {
        let key = Self.key(period, start)
        if storedChallenges[key] == nil { storedChallenges[key] = choices.map { StoredChallenge(choice: $0, completedAt: nil) } }
        return storedChallenges[key] ?? []
    }

    func completeChallenge(_ challenge: ChallengeChoice, at: Date) throws -> Bool {
        let key = Self.key(challenge.period, challenge.periodStart)
        guard let index = storedChallenges[key]?.firstIndex(where: { $0.choice.slot == challenge.slot }),
              storedChallenges[key]?[index].completedAt == nil else { return false }
        storedChallenges[key]?[index].completedAt = at
        return true
    }

    func challengeXP() throws -> Int {
        storedChallenges.values.joined().filter { $0.completedAt != nil }.reduce(0) { $0 + $1.choice.xp }
    }

    func challengeFacts(from first: LocalDay, through last: LocalDay) throws -> ChallengePeriodFacts {
        let days = first...last
        return ChallengePeriodFacts(
            logs: try allFacts().logs.filter { days.contains($0.day) }, lessonDays: lessons.map(\.day).filter { days.contains($0) })
    }

    func activeDayFigures(before day: LocalDay, count: Int) throws -> [ChallengeHistory.Day] {
        var figures: [LocalDay: ChallengeHistory.Day] = [:]
        for log in try allFacts().logs where log.day < day {
            var figure = figures[log.day] ?? ChallengeHistory.Day(day: log.day, logs: 0, amounts: [:], logsByActivity: [:], lessons: 0)
            figure.logs += 1
            figure.amounts[log.activity, default: 0] += log.amount
            figure.logsByActivity[log.activity, default: 0] += 1
            figures[log.day] = figure
        }
        for lesson in lessons where lesson.day < day {
            var figure = figures[lesson.day] ?? ChallengeHistory.Day(day: lesson.day, logs: 0, amounts: [:], logsByActivity: [:], lessons: 0)
            figure.lessons += 1
            figures[lesson.day] = figure
        }
        return Array(figures.values.sorted { $0.day < $1.day }.suffix(count))
    }

    func activitiesLogged(from first: LocalDay, through last: LocalDay) throws -> [String] {
        let days = first...last
        var counts: [String: Int] = [:]
        for log in try allFacts().logs where days.contains(log.day) { counts[log.activity, default: 0] += 1 }
        return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
    }
}
