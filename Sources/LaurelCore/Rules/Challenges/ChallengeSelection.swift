/// Chooses a user's challenges for a current period the first time something needs them (rules.md, "Challenges"):
/// the pure ``ChallengeChooser`` over the history before the day, as the user's running state sums it up.
public enum ChallengeSelection {
    /// The choice for the period of `period` that contains `today`.
    /// - Parameters:
    ///   - accumulator: the user's running state; only facts before the period's start count for its history.
    ///   - localHour: the user's local hour now.
    ///   - liveActivities: the built-in and live custom activities.
    ///   - candidates: the catalog's candidates for `period` (``ChallengeChooser/candidates(in:for:)``).
    public static func choose(
        _ period: ChallengePeriod, user: UserID, today: LocalDay, localHour: Int, accumulator: ProgressAccumulator,
        streakBeforeToday: Int, liveActivities: [Activity], candidates: [ChallengePoolEntry]
    ) -> [ChallengeChoice] {
        let start = period.start(of: today)
        // The week's challenge is chosen from the days before its Monday: its target needs the previous week's
        // active days, whatever day of the week it is chosen on.
        let history = accumulator.challengeHistory(before: start, currentStreak: streakBeforeToday, liveActivities: liveActivities)
        let choices = ChallengeChooser.choose(
            user: user, period: period, start: start, candidates: candidates, history: history, localHourNow: period == .daily ? localHour : nil)
        guard period == .weekly else { return choices }
        let activeBefore = ChallengePeriod.weekly.days(from: start).days.count { $0 < today && accumulator.isActive($0) }
        return reachable(choices, today: today, activeBefore: activeBefore, candidates: candidates)
    }

    /// Weekly challenges chosen late in the week, capped at what the week can still hold: the days already active
    /// and the days left, today included (a target of 7 chosen on a Sunday would be impossible).
    private static func reachable(
        _ choices: [ChallengeChoice], today: LocalDay, activeBefore: Int, candidates: [ChallengePoolEntry]
    ) -> [ChallengeChoice] {
        let lastDay = ChallengePeriod.weekly.days(from: ChallengePeriod.weekly.start(of: today)).upperBound
        let reachable = activeBefore + lastDay.days(since: today) + 1
        return choices.map { choice in
            guard choice.kind == .activeDaysWeek, choice.target > reachable,
                  let entry = candidates.first(where: { $0.kind == choice.kind }) else { return choice }
            var capped = choice
            capped.target = reachable
            capped.title = ChallengeChooser.render(entry.title, target: reachable, activityName: "")
            return capped
        }
    }
}
