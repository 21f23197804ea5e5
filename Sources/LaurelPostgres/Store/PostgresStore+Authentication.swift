import Foundation
import LaurelCore
import LaurelStore

extension PostgresStore {
    public func authenticate(token: String, from source: GuessingSource?, at now: Date) async throws(StoreError) -> Authentication {
        do {
            guard let source else {
                return try await pool.withConnection { connection in
                    let rows = try connection.query(
                        """
                        UPDATE laurel.users u SET last_seen_at = now()
                          FROM laurel.tokens t
                         WHERE t.digest = sha256(convert_to($1::text, 'UTF8')) AND t.revoked_at IS NULL AND u.id = t.user_id
                        RETURNING u.id, u.name
                        """, [.text(token)])
                    guard let row = rows.first else { return .unknownToken }
                    return .authenticated(try Self.user(of: row))
                }
            }
            return try await pool.transaction { connection in
                // The token looked up, and the source's row made if it is new (waiting for an AUTH elsewhere that is
                // making it), so that there is a row to lock below.
                let owners = try connection.query(
                    """
                    WITH present AS (
                        INSERT INTO laurel.auth_failures (source) VALUES ($2::inet) ON CONFLICT (source) DO NOTHING
                    )
                    SELECT t.user_id FROM laurel.tokens t
                     WHERE t.digest = sha256(convert_to($1::text, 'UTF8')) AND t.revoked_at IS NULL
                    """, [.text(token), .text(source.address)])
                let owner = try owners.first?.int("user_id")
                var allowance = try Self.lockedAllowance(of: source, toSpend: owner == nil, on: connection)
                if let wait = allowance.refusal(at: now, limit: source.limit) { return .refused(retryAfterMs: wait) }
                if let owner {
                    let users = try connection.query(
                        "UPDATE laurel.users SET last_seen_at = now() WHERE id = $1::bigint RETURNING id, name", [.int(owner)])
                    guard let user = users.first else { return .unknownToken }
                    return .authenticated(try Self.user(of: user))
                }
                allowance.spendFailure(at: now, limit: source.limit)
                try connection.execute(
                    """
                    UPDATE laurel.auth_failures SET available = $2::double precision, spent_at = \(PostgresTimestamp.parameter(3))
                     WHERE source = $1::inet
                    """, [.text(source.address), PostgresValue(allowance.available), PostgresValue(allowance.spentAt.map(PostgresTimestamp.microseconds))])
                return .unknownToken
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error)
        }
    }

    public func forgetWholeAuthAllowances(at now: Date, limit: FailedAuthLimit) async throws(StoreError) {
        let whole = now.addingTimeInterval(-min(limit.refillSeconds, 86_400 * 365))
        do {
            try await pool.withConnection { connection in
                try connection.execute(
                    "DELETE FROM laurel.auth_failures WHERE spent_at IS NULL OR spent_at < \(PostgresTimestamp.parameter(1))",
                    [.int(PostgresTimestamp.microseconds(whole))])
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// `source`'s allowance, locked until the transaction ends. An AUTH that may spend a failure (`toSpend`: its token
    /// is unknown) locks the row alone, waiting for every AUTH of the source being decided and holding the next ones
    /// until it commits, so instances take turns on one source's guesses. A valid token spends nothing and only needs
    /// the allowance not to be spent while it is decided: such AUTHs share the row and do not wait for each other, so
    /// a crowd of devices behind one address reconnecting at once is not answered one by one.
    private static func lockedAllowance(
        of source: GuessingSource, toSpend: Bool, on connection: PostgresConnection
    ) throws -> FailedAuthAllowance {
        let rows = try toSpend
            ? connection.query(
                """
                INSERT INTO laurel.auth_failures (source) VALUES ($1::inet)
                ON CONFLICT (source) DO UPDATE SET source = EXCLUDED.source
                RETURNING available, \(PostgresTimestamp.column("spent_at", as: "spent_us"))
                """, [.text(source.address)])
            : connection.query(
                """
                SELECT available, \(PostgresTimestamp.column("spent_at", as: "spent_us"))
                  FROM laurel.auth_failures WHERE source = $1::inet FOR SHARE
                """, [.text(source.address)])
        // No row: it was whole, and deleted as such since the statement above (an upsert always has one).
        guard let row = rows.first else { return FailedAuthAllowance(available: nil, at: nil) }
        return FailedAuthAllowance(
            available: try row.optionalDouble("available"),
            at: try row.optionalInt("spent_us").map(PostgresTimestamp.date(microseconds:)))
    }

    /// The user a row of `id` and `name` names.
    private static func user(of row: PostgresRow) throws -> AuthenticatedUser {
        AuthenticatedUser(id: UserID(Int64(try row.int("id"))), name: try row.string("name"))
    }
}
