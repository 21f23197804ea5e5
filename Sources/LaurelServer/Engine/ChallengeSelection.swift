import Foundation
import LaurelCore
import LaurelStore

/// Chooses a user's challenges for a current period, in a writing unit of work, the first time something needs
/// them (rules.md "Challenges"): it reads the history before the period, asks the pure `ChallengeChooser`, and
/// stores the choice. The user's lock makes the first choice the only one, on every connection and instance.
enum ChallengeSelection {
    /// The stored challenges of the period that contains `today`, chosen now if there were none.
    static func challenges(
        _ period: ChallengePeriod, today: LocalDay, localHour: Int, currentStreak: Int, catalog: Catalog, records: any UserRecords
    ) throws -> [StoredChallenge] {
        let start = period.start(of: today)
        let stored = try records.challenges(period, startingOn: start)
        guard stored.isEmpty, catalog.challengePool.contains(where: { $0.kind.period == period }) else { return stored }
        let history = try history(before: start, currentStreak: currentStreak, catalog: catalog, records: records)
        var choices = ChallengeChooser.choose(
            user: records.user, period: period, start: start, pool: catalog.challengePool, history: history,
            localHourNow: period == .daily ? localHour : nil)
        guard !choices.isEmpty else { return [] }
        if period == .weekly { choices = try reachable(choices, today: today, pool: catalog.challengePool, records: records) }
        return try records.storeChallenges(choices, period: period, startingOn: start)
    }

    /// Weekly challenges chosen late in the week, capped at what the week can still hold: the days already active
    /// and the days left, today included (a target of 7 chosen on a Sunday would be impossible).
    private static func reachable(
        _ choices: [ChallengeChoice], today: LocalDay, pool: [ChallengePoolEntry], records: any UserRecords
    ) throws -> [ChallengeChoice] {
        let week = ChallengeBoard.week(of: today)
        let before = try records.challengeFacts(from: week.lowerBound, through: today.adding(days: -1))
        let activeBefore = Set(before.logs.map(\.day) + before.lessonDays).count
        let reachable = activeBefore + (week.upperBound.daysSince1970 - today.daysSince1970 + 1)
        return choices.map { choice in
            guard choice.kind == .activeDaysWeek, choice.target > reachable,
                  let entry = pool.first(where: { $0.kind == choice.kind }) else { return choice }
            var capped = choice
            capped.target = reachable
            capped.title = ChallengeChooser.render(entry.title, target: reachable, activityName: "")
            return capped
        }
    }

    /// What the chooser knows before `start`: the last active days' figures, the activities logged lately, the
    /// streak and the live activities.
    static func history(before start: LocalDay, currentStreak: Int, catalog: Catalog, records: any UserRecords) throws -> ChallengeHistory {
        let days = try records.activeDayFigures(before: start, count: ChallengeHistory.lookBack)
        let previousWeek = ChallengeBoard.week(of: start.adding(days: -7))
        let recent = try records.activitiesLogged(from: start.adding(days: -ChallengeHistory.lookBack), through: start.adding(days: -1))
        let live = catalog.activities + (try records.customActivities(includeDeleted: false))
        return ChallengeHistory(
            activeDays: days, activeDaysPreviousWeek: days.count { previousWeek.contains($0.day) }, currentStreak: currentStreak,
            liveActivities: live, recentActivities: recent)
    }
}
