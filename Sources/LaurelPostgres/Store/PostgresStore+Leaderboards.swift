import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// Boards read from `laurel.day_scores`: a key's score is the sum of its local days' (all of them for `all`), its
/// `reached_at` the latest rise among its days that still score. The asker's rank is one more than the users ahead,
/// counted; a page is the next `limit` users in the order after a cursor. Two statements a page, in one snapshot.
/// Exact at any size, and slower the more users a key has: docs/leaderboards.md says what comes next.
extension PostgresStore {
    public func leaderboard(_ query: LeaderboardQuery) async throws(StoreError) -> LeaderboardPage {
        do {
            return try await pool.transaction { connection in
                try connection.simpleQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                return try Self.leaderboard(query, on: connection)
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// The board as one row per user with a score above 0: global (less those who opted out), or only the asker and
    /// the asker's friends. Parameters: $1 board, $2 and $3 the first and last day, and $4 the asker among friends.
    static func boardRows(friendsOnly: Bool) -> String {
        // Among friends, one set of ids (not `user_id = $4 OR user_id IN (...)`, which PostgreSQL answers by reading the
        // whole board): the day rows are then found by their key, a few hundred users' at most.
        let scope = friendsOnly
            ? "AND d.user_id IN (SELECT $4::bigint UNION ALL SELECT f.friend_id FROM laurel.friendships f WHERE f.user_id = $4::bigint)"
            : "AND NOT EXISTS (SELECT 1 FROM laurel.leaderboard_opt_outs o WHERE o.user_id = d.user_id)"
        return """
            board AS (
                SELECT d.user_id, sum(d.score) AS score, max(d.reached_at) FILTER (WHERE d.score > 0) AS reached_at
                  FROM laurel.day_scores d
                 WHERE d.board = $1::text AND d.day BETWEEN $2::date AND $3::date \(scope)
                 GROUP BY d.user_id HAVING sum(d.score) > 0)
            """
    }

    private static func leaderboard(_ query: LeaderboardQuery, on connection: PostgresConnection) throws -> LeaderboardPage {
        let days = query.days ?? LocalDay(year: 1, month: 1, day: 1)!...LocalDay(year: 9999, month: 12, day: 31)!
        let boardParameters: [PostgresValue] = [.text(query.board.description), PostgresValue(days.lowerBound), PostgresValue(days.upperBound)]
        let asker = PostgresValue.int(Int(query.asker.rawValue))
        // Among friends the asker is $4 in both statements; globally only the first names the asker, as $4 too.
        let standing = try connection.query(
            """
            WITH \(boardRows(friendsOnly: query.friendsOnly))
            SELECT (SELECT count(*) FROM board) AS total, me.score, u.name,
                   \(PostgresTimestamp.column("me.reached_at", as: "reached_us")),
                   (SELECT count(*) FROM board b
                     WHERE b.score > me.score
                        OR (b.score = me.score AND (b.reached_at < me.reached_at OR (b.reached_at = me.reached_at AND b.user_id < me.user_id))))
                   + 1 AS rank
              FROM (SELECT 1) AS one
              LEFT JOIN board me ON me.user_id = $4::bigint
              LEFT JOIN laurel.users u ON u.id = me.user_id
            """, boardParameters + [asker]
        ).first.require()
        let total = try standing.int("total")
        var me: LeaderboardEntry?
        if let score = try standing.optionalInt("score"), let name = try standing.optionalString("name") {
            let reached = try standing.int("reached_us")
            let rank = try standing.int("rank")
            me = LeaderboardEntry(
                rank: rank, user: query.asker, name: name, score: score, reachedAt: PostgresTimestamp.date(microseconds: reached),
                cursor: LeaderboardCursor(score: score, reachedMicroseconds: reached, user: query.asker, rank: rank))
        }

        var parameters = query.friendsOnly ? boardParameters + [asker] : boardParameters
        var after = ""
        var firstRank = 1
        // Users skipped in rank order: only around the asker (after a cursor, the cursor's condition skips them).
        var offset = 0
        switch query.page {
        case .top:
            break
        case .after(let cursor):
            let (score, reached, user) = (parameters.count + 1, parameters.count + 2, parameters.count + 3)
            after = """
                 WHERE b.score < $\(score)::bigint OR (b.score = $\(score)::bigint AND (b.reached_at > \(PostgresTimestamp.parameter(reached))
                       OR (b.reached_at = \(PostgresTimestamp.parameter(reached)) AND b.user_id > $\(user)::bigint)))
                """
            parameters += [.int(cursor.score), .int(cursor.reachedMicroseconds), .int(Int(cursor.user.rawValue))]
            firstRank = cursor.rank + 1
        case .aroundAsker:
            if let rank = me?.rank {
                // The asker at position ⌊limit/2⌋ of the page, shifted at either end of the board.
                firstRank = max(1, min(rank - query.limit / 2, total - query.limit + 1))
                offset = firstRank - 1
            }
        }
        let rows = try connection.query(
            """
            WITH \(boardRows(friendsOnly: query.friendsOnly))
            SELECT b.user_id, u.name, b.score, \(PostgresTimestamp.column("b.reached_at", as: "reached_us"))
              FROM (SELECT * FROM board b \(after)) b JOIN laurel.users u ON u.id = b.user_id
             ORDER BY b.score DESC, b.reached_at, b.user_id OFFSET \(offset) LIMIT \(query.limit)
            """, parameters)
        let entries = try rows.enumerated().map { index, row in
            let (user, score, reached) = (UserID(Int64(try row.int("user_id"))), try row.int("score"), try row.int("reached_us"))
            let rank = firstRank + index
            return LeaderboardEntry(
                rank: rank, user: user, name: try row.string("name"), score: score, reachedAt: PostgresTimestamp.date(microseconds: reached),
                cursor: LeaderboardCursor(score: score, reachedMicroseconds: reached, user: user, rank: rank))
        }
        let next = entries.last.flatMap { $0.rank < total ? $0.cursor : nil }
        return LeaderboardPage(entries: entries, me: me, total: total, next: next)
    }
}

/// Refilling day scores from a recomputation (`laurel boards refill`).
extension PostgresStore {
    public func userIDs(after: UserID?, limit: Int) async throws(StoreError) -> [UserID] {
        do {
            return try await pool.withConnection { connection in
                try connection.query(
                    "SELECT id FROM laurel.users WHERE id > $1::bigint ORDER BY id LIMIT $2::bigint",
                    [.int(Int(after?.rawValue ?? Int64.min)), .int(limit)]
                ).map { UserID(Int64(try $0.int("id"))) }
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func refillDayScores(of user: UserID, _ compute: @escaping @Sendable (any UserReader) throws -> [BoardScores.DayScore]) async throws -> Int {
        do {
            return try await pool.transaction { connection in
                let id = PostgresValue.int(Int(user.rawValue))
                guard try connection.query("SELECT 1 FROM laurel.progress WHERE user_id = $1::bigint FOR UPDATE", [id]).first != nil else { return 0 }
                let days = try compute(PostgresUserReader(connection: connection, user: user))
                _ = try connection.execute("DELETE FROM laurel.day_scores WHERE user_id = $1::bigint", [id])
                guard !days.isEmpty else { return 0 }
                func array(_ values: [String]) -> PostgresValue { .text(JSONValue.array(values.map(JSONValue.string)).serialized()) }
                return try connection.execute(
                    """
                    INSERT INTO laurel.day_scores (user_id, day, board, score, reached_at)
                    SELECT $1::bigint, x.day, x.board, x.score, 'epoch'::timestamptz + x.reached_us * interval '1 microsecond'
                      FROM json_to_recordset($2::json) AS x(day date, board text, score bigint, reached_us bigint)
                    """,
                    [id, .text(JSONValue.array(days.map { day in
                        ["day": .string(day.day.description), "board": .string(day.board.description), "score": .int(day.score),
                         "reached_us": .int(PostgresTimestamp.microseconds(day.reachedAt))]
                    }).serialized())])
            }
        } catch {
            throw StoreError(error)
        }
    }
}
