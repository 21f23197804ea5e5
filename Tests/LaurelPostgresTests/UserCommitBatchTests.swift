import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore
import Testing

@testable import LaurelPostgres

/// What a batch of commits looks like to `laurel.commit_changes`: the fields of `laurel.commit_part` (sql/migrations/0013_commit_parts.sql),
/// numbered parts, timestamps in microseconds, JSON values travelling as text.
@Suite struct UserCommitBatchTests {
    static let decided = Date(timeIntervalSince1970: 1_781_546_400.123)

    @Test func aLogCommitCarriesItsRowsAndFigures() throws {
        var writes = ProgressWrites()
        writes.fact = NewFact(
            content: .log(activityID: "pushups", amount: 20, localHour: 18, note: "a \"good\" one"), id: "l1", at: Self.decided,
            day: LocalDay("2026-06-15")!, requestedAt: nil)
        writes.unlocks = ["first_exercise"]
        var figures = ProgressFigures()
        figures.xp = 65
        writes.figures = figures
        writes.allowance = LogAllowance(available: 999, at: Self.decided)
        writes.scores.add(.logs, on: LocalDay("2026-06-15")!, 1)
        writes.scores.add(.logs, on: LocalDay("2026-06-10")!, -1)
        let yesterday = LatestDayScores(day: LocalDay("2026-06-14")!, scores: [.init(board: .xp, score: 30, reachedAt: Date(timeIntervalSince1970: 1))])
        let commit = UserCommit(
            user: UserID(3), expectedVersion: 41, writes: writes, decidedAt: Self.decided,
            pushes: [PushDraft(kind: .unlock, data: "{\"id\":\"first_exercise\"}")], answer: "{\"duplicate\":false}", snapshot: nil,
            scoresBefore: yesterday)
        let text = String(decoding: UserCommitBatch.bytes([commit], in: [0]), as: UTF8.self)
        let batch = try #require(try JSONParser.parse(text).arrayValue)
        let part = try #require(batch.first?.objectValue)
        #expect(part["n"] == .int(0) && part["user_id"] == .int(3) && part["version"] == .int(41))
        #expect(part["fact_kind"] == .string("log") && part["fact_id"] == .string("l1") && part["activity"] == .string("pushups"))
        #expect(part["note"] == .string("a \"good\" one"))
        #expect(part["at_us"] == .int(1_781_546_400_123_000) && part["decided_us"] == .int(1_781_546_400_123_000))
        #expect(part["response"]?.objectValue?["duplicate"] == .bool(false))
        #expect(text.contains(#""response":{"duplicate":false}"#), "the answer travels as JSON, byte for byte as rendered")
        #expect(part["unlocks"] == .array(["first_exercise"]))
        #expect(part["push_kinds"] == .array(["UNLOCK"]) && part["push_data"] == .array([["id": "first_exercise"]]))
        #expect(text.contains(#""push_data":[{"id":"first_exercise"}]"#), "a push travels as JSON, byte for byte as rendered")
        #expect(part["has_figures"] == .bool(true) && part["xp"] == .int(65))
        #expect(part["allowance"] == .double(999) && part["requested_us"] == nil && part["reloads"] == nil)
        // The day the new log's day replaces as the latest moves to rows of its own, as does the backfill.
        #expect(part["scores"] == .array([
            ["day": "2026-06-14", "board": "xp", "delta": 30, "reached_us": 1_000_000],
            ["day": "2026-06-10", "board": "logs", "delta": -1, "reached_us": .int(1_781_546_400_123_000)],
        ]))
        #expect(part["latest_score_day"] == .string("2026-06-15"))
        #expect(part["latest_scores"] == ["logs": [1, .int(1_781_546_400_123_000)]])
    }
}
