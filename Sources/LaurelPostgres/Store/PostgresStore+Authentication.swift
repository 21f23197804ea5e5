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
                // The upsert locks the source's row (created if new) until the commit, and reads its latest version:
                // an AUTH from the same source on any instance waits for this one's decision.
                let rows = try connection.query(
                    """
                    WITH allowance AS (
                        INSERT INTO laurel.auth_failures (source) VALUES ($2::inet)
                        ON CONFLICT (source) DO UPDATE SET source = EXCLUDED.source
                        RETURNING available, \(PostgresTimestamp.column("spent_at", as: "spent_us"))
                    ), owner AS (
                        SELECT t.user_id FROM laurel.tokens t
                         WHERE t.digest = sha256(convert_to($1::text, 'UTF8')) AND t.revoked_at IS NULL
                    )
                    SELECT a.available, a.spent_us, o.user_id FROM allowance a LEFT JOIN owner o ON true
                    """, [.text(token), .text(source.address)])
                guard let row = rows.first else { throw StoreError.failed("no allowance row for \(source.address)") }
                var allowance = FailedAuthAllowance(
                    available: try row.optionalDouble("available"),
                    at: try row.optionalInt("spent_us").map(PostgresTimestamp.date(microseconds:)))
                if let wait = allowance.refusal(at: now, limit: source.limit) { return .refused(retryAfterMs: wait) }
                if let owner = try row.optionalInt("user_id") {
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

    /// The user a row of `id` and `name` names.
    private static func user(of row: PostgresRow) throws -> AuthenticatedUser {
        AuthenticatedUser(id: UserID(Int64(try row.int("id"))), name: try row.string("name"))
    }
}
