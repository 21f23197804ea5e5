/// A comparative goal (rule kind `top_percent`): finish one of the latest ended weeks within the top `percent` of a
/// global board.
public struct TopPercentGoal: Hashable, Sendable, Codable {
    public var board: LeaderboardBoard
    /// 1...100.
    public var percent: Int

    public init(board: LeaderboardBoard, percent: Int) {
        self.board = board
        self.percent = percent
    }
}

/// When a comparative goal is met (rules.md, "Comparative achievements"): on one of the four latest weeks ended
/// everywhere, the user's rank on the week's global board is at most ⌈total × percent / 100⌉, with at least
/// ``minimumBoard`` users on it.
public enum TopPercentRule {
    /// Fewer users than this make no board worth beating.
    public static let minimumBoard = 20

    /// The last rank within `percent` of a board of `total` users: ⌈total × percent / 100⌉.
    public static func lastRank(total: Int, percent: Int) -> Int {
        (total * percent + 99) / 100
    }

    /// Whether `standing` meets `goal`.
    public static func isMet(_ goal: TopPercentGoal, by standing: WeekStanding) -> Bool {
        guard standing.board == goal.board, standing.total >= minimumBoard, let rank = standing.rank else { return false }
        return rank <= lastRank(total: standing.total, percent: goal.percent)
    }

    /// The ranks a week's ranking must keep for `goals` on a board of `total` users: every rank any goal on that
    /// board can be met with (0 when the board is too small for any).
    public static func ranksToKeep(total: Int, goals: some Sequence<TopPercentGoal>) -> Int {
        guard total >= minimumBoard else { return 0 }
        return goals.map { lastRank(total: total, percent: $0.percent) }.max() ?? 0
    }
}
