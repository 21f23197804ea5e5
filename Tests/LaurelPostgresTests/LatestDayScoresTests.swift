import Foundation
import LaurelCore
import LaurelStore
import Testing

/// How a commit's score changes are stored: the latest day on the progress row, earlier days as rows of their own.
struct LatestDayScoresTests {
    static let monday = LocalDay("2026-11-23")!
    static let tuesday = LocalDay("2026-11-24")!
    static let (first, second) = (Date(timeIntervalSince1970: 1_790_000_000), Date(timeIntervalSince1970: 1_790_000_100))

    static func changes(_ entries: [(LeaderboardBoard, LocalDay, Int)]) -> ScoreChanges {
        var changes = ScoreChanges()
        for (board, day, delta) in entries { changes.add(board, on: day, delta) }
        return changes
    }

    @Test func aFirstScoreMakesItsDayTheLatestAndWritesNoRow() {
        let rows = LatestDayScores().moved(by: Self.changes([(.logs, Self.monday, 1), (.xp, Self.monday, 25)]), at: Self.first)
        #expect(rows.earlierDays.isEmpty)
        #expect(rows.latest == LatestDayScores(day: Self.monday, scores: [
            .init(board: .logs, score: 1, reachedAt: Self.first), .init(board: .xp, score: 25, reachedAt: Self.first),
        ]))
    }

    @Test func theLatestDaysWritesAddUpOnTheRowAndOnlyARiseMovesReachedAt() {
        let held = LatestDayScores(day: Self.monday, scores: [.init(board: .logs, score: 2, reachedAt: Self.first)])
        let rise = held.moved(by: Self.changes([(.logs, Self.monday, 1)]), at: Self.second)
        #expect(rise.earlierDays.isEmpty)
        #expect(rise.latest?.scores == [.init(board: .logs, score: 3, reachedAt: Self.second)])
        let deletion = held.moved(by: Self.changes([(.logs, Self.monday, -2)]), at: Self.second)
        #expect(deletion.latest?.scores == [.init(board: .logs, score: 0, reachedAt: Self.first)], "a day back at 0 keeps its entry")
        #expect(held.moved(by: ScoreChanges(), at: Self.second) == LatestDayScores.Rows(), "nothing to store")
    }

    @Test func aLaterDayTakesOverAndTheDayItReplacesMovesToRowsAsItIs() {
        let held = LatestDayScores(day: Self.monday, scores: [.init(board: .xp, score: 40, reachedAt: Self.first)])
        let rows = held.moved(by: Self.changes([(.xp, Self.tuesday, 15)]), at: Self.second)
        #expect(rows.earlierDays == [.init(day: Self.monday, board: .xp, delta: 40, reachedAt: Self.first)])
        #expect(rows.latest == LatestDayScores(day: Self.tuesday, scores: [.init(board: .xp, score: 15, reachedAt: Self.second)]))
        #expect(held.after(rows) == rows.latest)
    }

    @Test func anEarlierDayMovesItsRowAndLeavesTheLatestAlone() {
        let held = LatestDayScores(day: Self.tuesday, scores: [.init(board: .logs, score: 1, reachedAt: Self.first)])
        let rows = held.moved(by: Self.changes([(.logs, Self.monday, -1)]), at: Self.second)
        #expect(rows.earlierDays == [.init(day: Self.monday, board: .logs, delta: -1, reachedAt: Self.second)])
        #expect(rows.latest == nil)
        #expect(held.after(rows) == held)
    }

    @Test func oneWriteOverSeveralDaysKeepsTheNewestAsTheLatest() {
        // A backfill to Monday whose unlock counts on Tuesday, from a latest day before both.
        let sunday = LocalDay("2026-11-22")!
        let held = LatestDayScores(day: sunday, scores: [.init(board: .logs, score: 4, reachedAt: Self.first)])
        let rows = held.moved(by: Self.changes([(.logs, Self.monday, 1), (.xp, Self.tuesday, 50)]), at: Self.second)
        #expect(Set(rows.earlierDays.map { "\($0.day) \($0.board) \($0.delta)" }) == ["2026-11-22 logs 4", "2026-11-23 logs 1"])
        #expect(rows.latest == LatestDayScores(day: Self.tuesday, scores: [.init(board: .xp, score: 50, reachedAt: Self.second)]))
    }
}
