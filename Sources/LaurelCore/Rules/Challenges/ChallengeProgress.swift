/// How far a user has come with one challenge in its period: the rule of rules.md ("Progress and completion"),
/// counted over the live facts of the period's days as the user's running state sums them up.
public enum ChallengeProgress {
    /// Progress of `challenge`, capped at its target. Rest and vacation days are settings, not facts, so they never
    /// count.
    public static func progress(of challenge: ChallengeChoice, in accumulator: ProgressAccumulator) -> Int {
        min(count(challenge, in: accumulator), challenge.target)
    }

    /// Whether the challenge's progress has reached its target.
    public static func isReached(_ challenge: ChallengeChoice, in accumulator: ProgressAccumulator) -> Bool {
        count(challenge, in: accumulator) >= challenge.target
    }

    /// The same, for the choice at `challenge` (``ChallengeBook/containsOpen(in:where:)``), read in place.
    public static func isReached(at challenge: UnsafePointer<ChallengeChoice>, in accumulator: ProgressAccumulator) -> Bool {
        count(challenge.pointee, in: accumulator) >= challenge.pointee.target
    }

    @inline(__always)
    private static func count(_ challenge: borrowing ChallengeChoice, in accumulator: ProgressAccumulator) -> Int {
        let period = challenge.days
        // Walked without an array: every decision counts every open challenge.
        let days = (period.lowerBound.daysSince1970...period.upperBound.daysSince1970).lazy.map(LocalDay.init(daysSince1970:))
        switch challenge.kind {
        case .logsToday, .sessionsToday:
            return days.reduce(0) { sum, day in
                sum + (challenge.activity.map { accumulator.figures(of: $0, on: day).logs } ?? accumulator.figures(on: day).logs)
            }
        case .amountToday, .minutesToday:
            return days.reduce(0) { sum, day in
                sum + (challenge.activity.map { accumulator.figures(of: $0, on: day).amount } ?? accumulator.figures(on: day).amount)
            }
        case .distinctToday:
            return period.lowerBound == period.upperBound
                ? accumulator.figures(on: period.lowerBound).distinctActivities : accumulator.activitiesLogged(on: period).count
        case .beforeHour:
            let hour = challenge.hour ?? 0
            return days.contains { accumulator.figures(on: $0).earliestLocalHour.map { $0 < hour } ?? false } ? 1 : 0
        case .keepStreak:
            return days.contains { accumulator.isActive($0) } ? 1 : 0
        case .lessonToday:
            return days.contains { accumulator.figures(on: $0).lessons > 0 } ? 1 : 0
        case .activeDaysWeek:
            return days.count { accumulator.isActive($0) }
        }
    }
}
