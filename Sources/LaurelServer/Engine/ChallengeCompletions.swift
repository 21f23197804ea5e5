import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// The challenges a writing unit of work completes: in the transaction of the fact that completes them, each is
/// marked completed once (its XP is the user's for good) and told in a `CHALLENGE` push. Progress is counted over
/// the stored facts of the period, so a backfill into an earlier day of a stored period counts too.
struct ChallengeCompletions {
    /// The challenges completed now, as CHALLENGE objects, in period and slot order.
    var completed: [JSONObject] = []
    /// XP of every challenge the user has completed, these included.
    var totalXP: Int

    /// Completes what the facts of the periods of `days` now reach; those periods that are current (today, this week)
    /// get their challenges chosen first if they have none yet (a fact of theirs, or a CHALLENGES request, needs them).
    init(
        days: Set<LocalDay>, today: LocalDay, localHour: Int, currentStreak: Int, catalog: Catalog, records: any UserRecords,
        now: Date
    ) throws {
        var periods: [ChallengePeriod: Set<LocalDay>] = [:]
        for day in days {
            for period in ChallengePeriod.allCases { periods[period, default: []].insert(period.start(of: day)) }
        }
        var due: [StoredChallenge] = []
        for period in ChallengePeriod.allCases {
            for start in (periods[period] ?? []).sorted() {
                let isCurrent = start == period.start(of: today)
                let stored = isCurrent
                    ? try ChallengeSelection.challenges(
                        period, today: today, localHour: localHour, currentStreak: currentStreak, catalog: catalog, records: records)
                    : try records.challenges(period, startingOn: start)
                let open = stored.filter { $0.completedAt == nil }
                guard !open.isEmpty else { continue }
                let span = period.days(from: start)
                let facts = try records.challengeFacts(from: span.lowerBound, through: span.upperBound)
                due += open.filter { ChallengeProgress.progress(of: $0.choice, in: facts) >= $0.choice.target }
            }
        }
        for var challenge in due where try records.completeChallenge(challenge.choice, at: now) {
            challenge.completedAt = now
            completed.append(ChallengeRendering.object(challenge, progress: challenge.choice.target))
        }
        totalXP = try records.challengeXP()
    }

    /// The CHALLENGE pushes to store, one a completed challenge.
    var pushes: [PushDraft] {
        completed.map { PushDraft(kind: .challenge, data: $0) }
    }
}
