extension ProgressAccumulator {
    /// What the chooser knows before the period starting on or containing `day`: the last active days before `day`
    /// with their figures, the active days of the ISO week before `day`'s, and the activities logged in the 14 days
    /// before it. Only facts whose local day is before `day` count, so a choice re-derived later comes out the same.
    /// - Parameters:
    ///   - day: the first day the history must not include.
    ///   - currentStreak: the daily streak before `day` (`StreakState.current(before:)`).
    ///   - liveActivities: the built-in and live custom activities, in a stable order.
    public func challengeHistory(before day: LocalDay, currentStreak: Int, liveActivities: [Activity]) -> ChallengeHistory {
        let earlier = activeDays[..<activeDays.insertionIndex(of: day)]
        let recentDays = earlier.suffix(ChallengeHistory.lookBack).map { active in
            var figures = ChallengeHistory.Day(day: active, logs: 0, amounts: [:], logsByActivity: [:], lessons: days[active]?.lessons ?? 0)
            for (activity, tally) in activities {
                guard let logged = tally.daily[active] else { continue }
                figures.logs += logged.logs
                figures.amounts[activity] = logged.amount
                figures.logsByActivity[activity] = logged.logs
            }
            return figures
        }
        let previousWeek = ChallengePeriod.weekly.days(from: ChallengePeriod.weekly.start(of: day.adding(days: -7)))
        let lookBack = day.adding(days: -ChallengeHistory.lookBack)...day.adding(days: -1)
        return ChallengeHistory(
            activeDays: recentDays, activeDaysPreviousWeek: earlier.count { previousWeek.contains($0) },
            currentStreak: currentStreak, liveActivities: liveActivities,
            recentActivities: activitiesLogged(on: lookBack).sorted())
    }
}
