import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// Boards read from `laurel.day_scores` (a view of the earlier days' rows and the latest day on the progress row,
/// ``LatestDayScores``): a key's score is the sum of its local days' (all of them for `all`), its `reached_at` the
/// latest rise among its days that still score. Instances rank keys in memory from these (`RankedBoard`); the
/// operators' `laurel.leaderboard` and the weeks' rankings read the same sums.
extension PostgresStore {
    /// The global board of a key as one row per user with a score above 0, opted-out users left out. Parameters: $1
    /// board, $2 and $3 the first and last day.
    static let globalBoardRows = """
        board AS (
            SELECT d.user_id, sum(d.score) AS score, max(d.reached_at) FILTER (WHERE d.score > 0) AS reached_at
              FROM laurel.day_scores d
             WHERE d.board = $1::text AND d.day BETWEEN $2::date AND $3::date
               AND NOT EXISTS (SELECT 1 FROM laurel.leaderboard_opt_outs o WHERE o.user_id = d.user_id)
             GROUP BY d.user_id HAVING sum(d.score) > 0)
        """

    /// The board, first day and last day of a key (every day for `all`).
    private static func parameters(of key: BoardKey) -> [PostgresValue] {
        let days = key.period.days(ofKey: key.key) ?? LocalDay(year: 1, month: 1, day: 1)!...LocalDay(year: 9999, month: 12, day: 31)!
        return [.text(key.board.description), PostgresValue(days.lowerBound), PostgresValue(days.upperBound)]
    }

    /// Every user's sum on a key with their opt-out and version: a whole key, read once when an instance takes it.
    private static let keyStandings = """
        SELECT b.user_id, b.score, \(PostgresTimestamp.column("b.reached_at", as: "reached_us")), g.version,
               EXISTS (SELECT 1 FROM laurel.leaderboard_opt_outs o WHERE o.user_id = b.user_id) AS opted_out
          FROM (SELECT d.user_id, sum(d.score) AS score, max(d.reached_at) FILTER (WHERE d.score > 0) AS reached_at
                  FROM laurel.day_scores d
                 WHERE d.board = $1::text AND d.day BETWEEN $2::date AND $3::date
                 GROUP BY d.user_id HAVING sum(d.score) > 0) b
          JOIN laurel.progress g ON g.user_id = b.user_id
        """

    /// The sums of some users ($4, a bigint[]) on a key, each user's day rows found by the primary key: filtered from
    /// the key's rows by (board, day), a few hundred users of a million-user key took seconds.
    private static let usersStandings = """
        SELECT u.user_id, b.score, \(PostgresTimestamp.column("b.reached_at", as: "reached_us")), g.version,
               EXISTS (SELECT 1 FROM laurel.leaderboard_opt_outs o WHERE o.user_id = u.user_id) AS opted_out
          FROM unnest($4::bigint[]) AS u(user_id)
          CROSS JOIN LATERAL (
                SELECT sum(d.score) AS score, max(d.reached_at) FILTER (WHERE d.score > 0) AS reached_at
                  FROM laurel.day_scores d
                 WHERE d.user_id = u.user_id AND d.board = $1::text AND d.day BETWEEN $2::date AND $3::date) b
          JOIN laurel.progress g ON g.user_id = u.user_id
         WHERE b.score > 0
        """

    private static func standing(_ row: PostgresRow) throws -> StoredStanding {
        StoredStanding(user: UserID(Int64(try row.int("user_id"))), entry: RankedBoard.Entry(
            score: try row.int("score"), reachedMicroseconds: try row.int("reached_us"), optedOut: try row.bool("opted_out"),
            version: Int64(try row.int("version"))))
    }

    public func boardStandings(on key: BoardKey) async throws(StoreError) -> [StoredStanding] {
        do {
            return try await pool.withConnection { connection in
                try connection.query(Self.keyStandings, Self.parameters(of: key)).map(Self.standing)
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func boardStandings(of users: [UserID], on keys: [BoardKey]) async throws(StoreError) -> [BoardKey: [StoredStanding]] {
        guard !users.isEmpty, !keys.isEmpty else { return [:] }
        do {
            return try await pool.transaction { connection in
                try connection.simpleQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                let ids = PostgresValue(userIDs: users)
                // Every user once, with a score of 0 on the keys where they have none.
                var base: [UserID: StoredStanding] = [:]
                for row in try connection.query(
                    """
                    SELECT g.user_id, g.version, EXISTS (SELECT 1 FROM laurel.leaderboard_opt_outs o WHERE o.user_id = g.user_id) AS opted_out
                      FROM laurel.progress g WHERE g.user_id = ANY ($1::bigint[])
                    """, [ids]) {
                    let user = UserID(Int64(try row.int("user_id")))
                    base[user] = StoredStanding(user: user, entry: RankedBoard.Entry(
                        score: 0, reachedMicroseconds: 0, optedOut: try row.bool("opted_out"), version: Int64(try row.int("version"))))
                }
                var read: [BoardKey: [StoredStanding]] = [:]
                for key in keys {
                    var standings = base
                    for row in try connection.query(Self.usersStandings, Self.parameters(of: key) + [ids]) {
                        let standing = try Self.standing(row)
                        standings[standing.user] = standing
                    }
                    read[key] = Array(standings.values)
                }
                return read
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func friendNames(of user: UserID) async throws(StoreError) -> [UserID: String] {
        do {
            return try await pool.withConnection { connection in
                var names: [UserID: String] = [:]
                for row in try connection.query(
                    "SELECT f.friend_id, u.name FROM laurel.friendships f JOIN laurel.users u ON u.id = f.friend_id WHERE f.user_id = $1::bigint",
                    [.int(Int(user.rawValue))]) {
                    names[UserID(Int64(try row.int("friend_id")))] = try row.string("name")
                }
                return names
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func userNames(_ users: [UserID]) async throws(StoreError) -> [UserID: String] {
        guard !users.isEmpty else { return [:] }
        do {
            return try await pool.withConnection { connection in
                var names: [UserID: String] = [:]
                for row in try connection.query("SELECT id, name FROM laurel.users WHERE id = ANY ($1::bigint[])", [PostgresValue(userIDs: users)]) {
                    names[UserID(Int64(try row.int("id")))] = try row.string("name")
                }
                return names
            }
        } catch {
            throw StoreError(error)
        }
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
                // The latest day goes to the progress row, the others to rows of their own (LatestDayScores). The
                // version moves on: a session holding the latest day's scores of before catches up before it writes.
                let rows = LatestDayScores.laidOut(days)
                var latest = JSONWriter()
                if let scores = rows.latest?.scores { UserCommitBatch.write(scores, into: &latest) }
                _ = try connection.execute(
                    """
                    UPDATE laurel.progress SET version = version + 1, latest_score_day = $2::date, latest_scores = $3::text
                     WHERE user_id = $1::bigint
                    """, [id, rows.latest?.day.map { .text($0.description) } ?? .null, rows.latest == nil ? .null : .text(latest.text)])
                _ = try connection.execute("DELETE FROM laurel.earlier_day_scores WHERE user_id = $1::bigint", [id])
                var earlier = JSONWriter()
                UserCommitBatch.write(rows.earlierDays, into: &earlier)
                _ = try connection.execute(
                    """
                    INSERT INTO laurel.earlier_day_scores (user_id, day, board, score, reached_at)
                    SELECT $1::bigint, x.day, x.board, x.delta, 'epoch'::timestamptz + x.reached_us * interval '1 microsecond'
                      FROM json_to_recordset($2::json) AS x(day date, board text, delta bigint, reached_us bigint)
                    """, [id, .text(earlier.text)])
                return days.count
            }
        } catch {
            throw StoreError(error)
        }
    }
}
