import Foundation
import LaurelCore
import LaurelStore

/// Chooses a user's challenges for a current period the first time something needs them (rules.md
/// "Challenges"): the pure `ChallengeChooser` over the history before the day. A session reads that history with
/// its progress and chooses at first need (storing in one statement, `LaurelStore.storeChallenges`); a writing
/// unit of work reads and stores in its transaction (``challenges(_:today:localHour:currentStreak:catalog:records:)``).
/// Both choose from the same figures, and both keep the first choice of a period, whoever made it.
enum ChallengeSelection {
    /// The stored challenges of the period that contains `today`, chosen and stored now if there were none.
    static func challenges(
        _ period: ChallengePeriod, today: LocalDay, localHour: Int, currentStreak: Int, catalog: Catalog, records: any UserRecords
    ) throws -> [StoredChallenge] {
        let start = period.start(of: today)
        let stored = try records.challenges(period, startingOn: start)
        guard stored.isEmpty, catalog.challengePool.contains(where: { $0.kind.period == period }) else { return stored }
        let live = catalog.activities + (try records.customActivities(includeDeleted: false))
        let history = try history(before: today, liveActivities: live, records: records)
        let choices = choose(
            period, user: records.user, today: today, localHour: localHour, currentStreak: currentStreak, history: history,
            weekTally: ChallengeTally(try ChallengeBoard.weekFacts(of: today, records: records)), pool: catalog.challengePool)
        guard !choices.isEmpty else { return [] }
        return try records.storeChallenges(choices, period: period, startingOn: start)
    }

    /// What the chooser knows before `day`: the last active days' figures, the activities logged lately and the live
    /// activities (the streak is added when choosing).
    static func history(before day: LocalDay, liveActivities: [Activity], records: any UserRecords) throws -> ChallengeHistory {
        let days = try records.activeDayFigures(before: day, count: ChallengeHistory.lookBack)
        let recent = try records.activitiesLogged(from: day.adding(days: -ChallengeHistory.lookBack), through: day.adding(days: -1))
        let previousWeek = ChallengeBoard.week(of: day.adding(days: -7))
        return ChallengeHistory(
            activeDays: days, activeDaysPreviousWeek: days.count { previousWeek.contains($0.day) }, currentStreak: 0,
            liveActivities: liveActivities, recentActivities: recent)
    }

    /// The choice for the period of `period` that contains `today` (pure).
    /// - Parameters:
    ///   - currentStreak: the streak before today (`StreakState.current(before:)`).
    ///   - history: the history before today (``history(before:liveActivities:records:)``). The week's challenge is
    ///     chosen from the days before its Monday: its target needs the previous week's active days, which the 14
    ///     active days before today always hold (at most 6 of them fall in this week).
    ///   - weekTally: the live facts of today's ISO week, for capping a weekly target chosen late in the week.
    static func choose(
        _ period: ChallengePeriod, user: UserID, today: LocalDay, localHour: Int, currentStreak: Int, history: ChallengeHistory,
        weekTally: ChallengeTally, pool: [ChallengePoolEntry]
    ) -> [ChallengeChoice] {
        let start = period.start(of: today)
        var before = history
        before.currentStreak = currentStreak
        if period == .weekly {
            before.activeDays = history.activeDays.filter { $0.day < start }
            before.activeDaysPreviousWeek = before.activeDays.count { ChallengeBoard.week(of: start.adding(days: -7)).contains($0.day) }
        }
        let choices = ChallengeChooser.choose(
            user: user, period: period, start: start, pool: pool, history: before, localHourNow: period == .daily ? localHour : nil)
        guard period == .weekly else { return choices }
        return reachable(choices, today: today, activeBefore: weekTally.activeDays(before: today), pool: pool)
    }

    /// Weekly challenges chosen late in the week, capped at what the week can still hold: the days already active
    /// and the days left, today included (a target of 7 chosen on a Sunday would be impossible).
    private static func reachable(
        _ choices: [ChallengeChoice], today: LocalDay, activeBefore: Int, pool: [ChallengePoolEntry]
    ) -> [ChallengeChoice] {
        let reachable = activeBefore + (ChallengeBoard.week(of: today).upperBound.daysSince1970 - today.daysSince1970 + 1)
        return choices.map { choice in
            guard choice.kind == .activeDaysWeek, choice.target > reachable,
                  let entry = pool.first(where: { $0.kind == choice.kind }) else { return choice }
            var capped = choice
            capped.target = reachable
            capped.title = ChallengeChooser.render(entry.title, target: reachable, activityName: "")
            return capped
        }
    }
}
