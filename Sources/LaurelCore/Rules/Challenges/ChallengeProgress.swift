/// How far a user has come with one challenge in its period.
public enum ChallengeProgress {
    /// Progress of `challenge` over `facts`, capped at the target. Facts outside the challenge's days are ignored,
    /// so a caller may pass a wider window than the period.
    public static func progress(of challenge: ChallengeChoice, in facts: ChallengePeriodFacts) -> Int {
        progress(of: challenge, logs: facts.logs, lessonDays: facts.lessonDays)
    }

    /// Whether the challenge is done: its progress has reached the target.
    public static func isComplete(_ challenge: ChallengeChoice, in facts: ChallengePeriodFacts) -> Bool {
        progress(of: challenge, in: facts) >= challenge.target
    }

    private static func progress<Logs: Collection<LoggedFact>>(of challenge: ChallengeChoice, logs all: Logs, lessonDays: [LocalDay]) -> Int {
        let days = challenge.days
        let logs = all.lazy.filter { days.contains($0.day) }
        let counted = logs.filter { log in challenge.activity.map { $0 == log.activity } ?? true }
        let hasLesson = lessonDays.contains { days.contains($0) }
        let value: Int
        switch challenge.kind {
        case .logsToday, .sessionsToday: value = counted.count
        case .amountToday, .minutesToday: value = counted.reduce(0) { $0 + $1.amount }
        case .distinctToday: value = Set(logs.map(\.activity)).count
        case .beforeHour: value = logs.contains { $0.localHour < (challenge.hour ?? 0) } ? 1 : 0
        case .keepStreak: value = hasLesson || !logs.isEmpty ? 1 : 0
        case .lessonToday: value = hasLesson ? 1 : 0
        case .activeDaysWeek: value = Set(logs.map(\.day)).union(lessonDays.filter { days.contains($0) }).count
        }
        return min(value, challenge.target)
    }
}
