import Foundation

/// The ISO weeks that have ended everywhere (rules.md, "Comparative achievements"): a week ends last where the clock
/// is furthest behind, at Sunday midnight in UTC−12, which is Monday 12:00 UTC. Until then some user still lives in
/// it and its board can still grow.
public enum EndedWeeks {
    /// How many of the latest ended weeks a `top_percent` rule looks at.
    public static let considered = 4

    /// When `week` has ended everywhere: the Monday 12:00 UTC after it.
    public static func end(of week: ISOWeek) -> Date {
        week.monday.adding(days: 7).start(in: .gmt).addingTimeInterval(12 * 3_600)
    }

    /// The ``considered`` latest weeks ended everywhere at `now`, latest first.
    public static func latest(at now: Date) -> [ISOWeek] {
        // Twelve hours back, the UTC date lies in the latest week not yet ended everywhere.
        let unfinished = LocalDay(of: now.addingTimeInterval(-12 * 3_600), in: .gmt).monday
        return (1...considered).map { unfinished.adding(days: -7 * $0).isoWeek }
    }
}

/// A user's place on one ended week's global board, as the ranking of that week last stood: `rank` is nil when the
/// user is not among the ranks kept (no score, opted out, or below every `top_percent` rule's reach).
public struct WeekStanding: Hashable, Sendable {
    public var week: ISOWeek
    public var board: LeaderboardBoard
    public var rank: Int?
    /// Users on the week's global board; 0 while the week is not ranked yet.
    public var total: Int

    public init(week: ISOWeek, board: LeaderboardBoard, rank: Int?, total: Int) {
        self.week = week
        self.board = board
        self.rank = rank
        self.total = total
    }
}

/// What a user's progress holds of the ended weeks' rankings, read from the store as a ``ProgressPiece`` and kept
/// until the weeks move on or it grows old, so a user's evaluations read it about once an hour, not every time.
public struct WeekStandings: Hashable, Sendable {
    /// The weeks asked for, latest first (``EndedWeeks/latest(at:)`` at `readAt`).
    public var weeks: [ISOWeek]
    public var boards: Set<LeaderboardBoard>
    public var standings: [WeekStanding]
    public var readAt: Date

    public init(weeks: [ISOWeek], boards: Set<LeaderboardBoard>, standings: [WeekStanding], readAt: Date) {
        self.weeks = weeks
        self.boards = boards
        self.standings = standings
        self.readAt = readAt
    }

    /// Whether these standings still answer for `boards` at `now`: the same weeks, and read less than `refresh` ago.
    /// A week not ranked yet (its ranking runs once it has ended) is asked again after a tenth of that.
    public func answers(for boards: Set<LeaderboardBoard>, at now: Date, refresh: TimeInterval) -> Bool {
        guard boards.isSubset(of: self.boards), weeks == EndedWeeks.latest(at: now) else { return false }
        let unranked = standings.count < weeks.count * self.boards.count || standings.contains { $0.total == 0 }
        return now.timeIntervalSince(readAt) < (unranked ? refresh / 10 : refresh)
    }
}
