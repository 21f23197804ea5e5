import Foundation
import LaurelCore
import LaurelStore

/// Rankings of ended weeks' global boards (`laurel.week_rankings`, `laurel.week_ranks`), for comparative goals.
extension PostgresStore {
    public func rankEndedWeek(
        _ week: ISOWeek, board: LeaderboardBoard, goals: [TopPercentGoal], at now: Date, staleBefore: Date, oldestWeek: ISOWeek
    ) async throws(StoreError) -> Bool {
        do {
            return try await pool.transaction { connection in
                // The size and the ranks from one snapshot.
                try connection.simpleQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                // One instance ranks at a time; the others find it fresh afterwards.
                guard try connection.query("SELECT pg_try_advisory_xact_lock(hashtext('laurel.week_rankings')) AS mine").first.require().bool("mine")
                else { return false }
                let (boardText, weekText) = (PostgresValue.text(board.description), PostgresValue.text(week.description))
                if let ranked = try connection.query(
                    "SELECT \(PostgresTimestamp.column("ranked_at", as: "ranked_us")) FROM laurel.week_rankings WHERE board = $1::text AND week = $2::text",
                    [boardText, weekText]
                ).first, PostgresTimestamp.date(microseconds: try ranked.int("ranked_us")) >= staleBefore {
                    return false
                }
                let days = week.days
                let boardParameters: [PostgresValue] = [boardText, PostgresValue(days[0]), PostgresValue(days[6])]
                let total = try connection.query("WITH \(Self.globalBoardRows) SELECT count(*) AS total FROM board", boardParameters)
                    .first.require().int("total")
                let keep = TopPercentRule.ranksToKeep(total: total, goals: goals)
                _ = try connection.execute("DELETE FROM laurel.week_ranks WHERE board = $1::text AND week = $2::text", [boardText, weekText])
                if keep > 0 {
                    _ = try connection.execute(
                        """
                        WITH \(Self.globalBoardRows)
                        INSERT INTO laurel.week_ranks (user_id, board, week, rank)
                        SELECT b.user_id, $1::text, $4::text, row_number() OVER (ORDER BY b.score DESC, b.reached_at, b.user_id)
                          FROM board b ORDER BY b.score DESC, b.reached_at, b.user_id LIMIT $5::bigint
                        """, boardParameters + [weekText, .int(keep)])
                }
                // The board's weeks no goal reads any more, by the index on (board, week).
                let older: [PostgresValue] = [boardText, .text(oldestWeek.description)]
                _ = try connection.execute("DELETE FROM laurel.week_ranks WHERE board = $1::text AND week < $2::text", older)
                _ = try connection.execute("DELETE FROM laurel.week_rankings WHERE board = $1::text AND week < $2::text", older)
                _ = try connection.execute(
                    """
                    INSERT INTO laurel.week_rankings (board, week, total, ranked_at) VALUES ($1::text, $2::text, $3::integer, \(PostgresTimestamp.parameter(4)))
                    ON CONFLICT (board, week) DO UPDATE SET total = EXCLUDED.total, ranked_at = EXCLUDED.ranked_at
                    """, [boardText, weekText, .int(total), .int(PostgresTimestamp.microseconds(now))])
                return true
            }
        } catch {
            throw StoreError(error)
        }
    }
}
