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
    /// Users on the week's global board when it was ranked.
    public var total: Int

    public init(week: ISOWeek, board: LeaderboardBoard, rank: Int?, total: Int) {
        self.week = week
        self.board = board
        self.rank = rank
        self.total = total
    }
}

/// What a user's progress holds of the ended weeks' rankings, read from the store as a ``ProgressPiece`` and kept
/// until the weeks move on or it grows old, so a user's evaluations read it about once an hour, not every time. A
/// class: every copy of a progress (several a decision) would otherwise retain each of its arrays.
public final class WeekStandings: Sendable {
    /// The weeks asked for, latest first (``EndedWeeks/latest(at:)`` at `readAt`).
    public let weeks: [ISOWeek]
    public let boards: Set<LeaderboardBoard>
    public let standings: [WeekStanding]
    public let readAt: Date
    /// When the weeks move on: the end of the week after the latest of them.
    private let weeksMoveOn: Date
    /// Some week has no ranking yet (its ranking runs once it has ended).
    private let lacksARanking: Bool

    public init(weeks: [ISOWeek], boards: Set<LeaderboardBoard>, standings: [WeekStanding], readAt: Date) {
        self.weeks = weeks
        self.boards = boards
        self.standings = standings
        self.readAt = readAt
        weeksMoveOn = weeks.first.map { EndedWeeks.end(of: $0.monday.adding(days: 7).isoWeek) } ?? readAt
        // The store lists a week's standing only once the week is ranked (a ranked board may be empty).
        lacksARanking = standings.count < weeks.count * boards.count
    }

    /// Whether these standings still answer for `board` at `now`: the same weeks, and read less than `refresh` ago
    /// (a tenth of it when a week was not ranked yet). Evaluated at every decision of a user with a locked goal, so
    /// it computes no weeks.
    public func answers(for board: LeaderboardBoard, at now: Date, refresh: TimeInterval) -> Bool {
        guard boards.contains(board), now >= readAt, now < weeksMoveOn else { return false }
        return now.timeIntervalSince(readAt) < (lacksARanking ? refresh / 10 : refresh)
    }
}
