import Foundation
import LaurelCore

/// A user's board scores on the latest local day that has any, as the user's progress row keeps them: the row every
/// write updates anyway, so that the writes of that day (nearly every LOG) store their scores without a row of their
/// own. Scores of earlier days are rows of their own (`laurel.earlier_day_scores`); `laurel.day_scores` shows both as
/// one row per user, day and board.
///
/// A session holds the value its version stored, and each commit sets the next one (``moved(by:at:)``): the version
/// check of the commit makes sure nobody changed it meanwhile.
public struct LatestDayScores: Sendable, Equatable {
    /// One board's score on the day, and when it last rose (the first change of a day counts as a rise, as a new row
    /// of `laurel.earlier_day_scores` does).
    public struct Score: Sendable, Equatable {
        public var board: LeaderboardBoard
        public var score: Int
        public var reachedAt: Date

        public init(board: LeaderboardBoard, score: Int, reachedAt: Date) {
            self.board = board
            self.score = score
            self.reachedAt = reachedAt
        }
    }

    /// The day; nil when the user has no score yet.
    public var day: LocalDay?
    /// The day's scores, one per board that changed on it (a score back at 0 stays, as its row would).
    public var scores: [Score]

    public init(day: LocalDay? = nil, scores: [Score] = []) {
        self.day = day
        self.scores = scores
    }

    /// A change to a day before the latest: added to that day's row, which also takes `reachedAt` when it rises.
    public struct EarlierDayChange: Sendable, Equatable {
        public var day: LocalDay
        public var board: LeaderboardBoard
        public var delta: Int
        public var reachedAt: Date

        public init(day: LocalDay, board: LeaderboardBoard, delta: Int, reachedAt: Date) {
            self.day = day
            self.board = board
            self.delta = delta
            self.reachedAt = reachedAt
        }
    }

    /// What a commit stores of its score changes: the rows of earlier days to move, and the latest day's scores when
    /// they changed (nil: the row keeps what it has).
    public struct Rows: Sendable, Equatable {
        public var earlierDays: [EarlierDayChange] = []
        public var latest: LatestDayScores?

        public init(earlierDays: [EarlierDayChange] = [], latest: LatestDayScores? = nil) {
            self.earlierDays = earlierDays
            self.latest = latest
        }
    }

    /// How `changes`, decided at `decidedAt`, are stored on top of these scores. A change on the latest day is added
    /// to it; a later day becomes the latest (the day it replaces moves to a row of its own, scores as they are);
    /// an earlier day (a backfill, a deletion) moves that day's row.
    public func moved(by changes: ScoreChanges, at decidedAt: Date) -> Rows {
        // The newest day looked for in place (a LOG's one change): no array of the days made for it.
        guard var newest = changes.days.first?.day else { return Rows() }
        for change in changes.days where change.day > newest { newest = change.day }
        var rows = Rows()
        var latest = self
        if let day, newest > day {
            rows.earlierDays = scores.map { EarlierDayChange(day: day, board: $0.board, delta: $0.score, reachedAt: $0.reachedAt) }
            latest = LatestDayScores(day: newest)
        } else if day == nil {
            latest.day = newest
        }
        for change in changes.days {
            guard change.day == latest.day else {
                rows.earlierDays.append(EarlierDayChange(day: change.day, board: change.board, delta: change.delta, reachedAt: decidedAt))
                continue
            }
            if let index = latest.scores.firstIndex(where: { $0.board == change.board }) {
                latest.scores[index].score += change.delta
                if change.delta > 0 { latest.scores[index].reachedAt = decidedAt }
            } else {
                latest.scores.append(Score(board: change.board, score: change.delta, reachedAt: decidedAt))
            }
        }
        if latest != self { rows.latest = latest }
        return rows
    }

    /// Where a user's whole set of day scores (a refill's) is stored: the newest day on the progress row, every other
    /// day as a row of its own, written as a change from nothing.
    public static func laidOut(_ days: [BoardScores.DayScore]) -> Rows {
        guard let newest = days.map(\.day).max() else { return Rows() }
        var rows = Rows(latest: LatestDayScores(day: newest))
        for day in days {
            if day.day == newest {
                rows.latest?.scores.append(Score(board: day.board, score: day.score, reachedAt: day.reachedAt))
            } else {
                rows.earlierDays.append(EarlierDayChange(day: day.day, board: day.board, delta: day.score, reachedAt: day.reachedAt))
            }
        }
        return rows
    }

    /// The state after a commit of `rows`.
    public func after(_ rows: Rows) -> LatestDayScores {
        rows.latest ?? self
    }
}
