import Foundation
import LaurelCore
import LaurelStore

/// Ranks the ended weeks whose global boards the catalog's comparative goals read (rules.md, "Comparative
/// achievements"): each of the latest ended weeks once it has ended everywhere, and again every `weekRankingRefresh`
/// while a goal reads it. Every instance runs it; the store lets one rank at a time, and a fresh ranking is not made
/// again.
struct WeekRanking {
    let services: ServerResources

    /// The catalog's comparative goals by board.
    private var goalsByBoard: [LeaderboardBoard: [TopPercentGoal]] {
        Dictionary(grouping: services.rules.catalogAchievements.topPercentGoals.map(\.goal), by: \.board)
    }

    /// Whether the catalog has comparative goals at all.
    var isNeeded: Bool { !services.rules.catalogAchievements.topPercentGoals.isEmpty }

    /// Ranks what is due at `now`; returns how many week boards it ranked.
    @discardableResult
    func rankDue(at now: Date) async throws -> Int {
        let weeks = EndedWeeks.latest(at: now)
        guard let oldest = weeks.last else { return 0 }
        let refresh = services.configuration.weekRankingRefresh.inSeconds
        var ranked = 0
        for (board, goals) in goalsByBoard.sorted(by: { $0.key.description < $1.key.description }) {
            for week in weeks {
                // Backfills, deletions, opt-outs and deleted accounts keep changing a week after it ended: every week
                // read is ranked again once its ranking is `refresh` old.
                let staleBefore = now.addingTimeInterval(-refresh)
                if try await services.store.rankEndedWeek(week, board: board, goals: goals, at: now, staleBefore: staleBefore, oldestWeek: oldest) {
                    ranked += 1
                }
            }
        }
        return ranked
    }
}
