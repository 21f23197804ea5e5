/// How far a user has come with one challenge in its period.
public enum ChallengeProgress {
    /// Progress of `challenge` over `facts`, capped at the target. Facts outside the challenge's days are ignored,
    /// so a caller may pass a wider window than the period.
    public static func progress(of challenge: ChallengeChoice, in facts: ChallengePeriodFacts) -> Int {
        let days = challenge.days
        let logs = facts.logs.filter { days.contains($0.day) }
        let lessonDays = facts.lessonDays.filter { days.contains($0) }
        let counted = challenge.activity.map { activity in logs.filter { $0.activity == activity } } ?? logs
        let value: Int
        switch challenge.kind {
        case .logsToday, .sessionsToday: value = counted.count
        case .amountToday, .minutesToday: value = counted.reduce(0) { $0 + $1.amount }
        case .distinctToday: value = Set(logs.map(\.activity)).count
        case .beforeHour: value = logs.contains { $0.localHour < (challenge.hour ?? 0) } ? 1 : 0
        case .keepStreak: value = logs.isEmpty && lessonDays.isEmpty ? 0 : 1
        case .lessonToday: value = lessonDays.isEmpty ? 0 : 1
        case .activeDaysWeek: value = Set(logs.map(\.day)).union(lessonDays).count
        }
        return min(value, challenge.target)
    }

    /// Whether the challenge is done: its progress has reached the target.
    public static func isComplete(_ challenge: ChallengeChoice, in facts: ChallengePeriodFacts) -> Bool {
        progress(of: challenge, in: facts) >= challenge.target
    }
}
