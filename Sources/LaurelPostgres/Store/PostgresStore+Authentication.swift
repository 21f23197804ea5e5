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
            // The address's turn on this instance first, so that AUTHs waiting for it hold no connection. It passes
            // on once this AUTH holds the address's lock, so the next one waits at the lock, ready the moment this
            // turn ends: an address's turn holds two connections of the pool at most, one deciding and one next.
            let turn = await addressTurns.take(source.address)
            defer { turn.end() }
            return try await pool.withConnection { connection in
                switch try Self.decide(token: token, from: source, at: now, on: connection, whenLocked: turn.end) {
                case .refused(let wait):
                    return .refused(retryAfterMs: wait)
                case .failed:
                    return .unknownToken
                case .valid(let owner):
                    // After the address's decision is committed, so that other AUTHs from it do not wait for this write.
                    let users = try connection.query(
                        "UPDATE laurel.users SET last_seen_at = now() WHERE id = $1::bigint RETURNING id, name", [.int(owner)])
                    guard let user = users.first else { return .unknownToken }
                    return .authenticated(try Self.user(of: user))
                }
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

    /// What an AUTH from a source with an allowance comes to, decided against the source's allowance.
    private enum GuessingDecision {
        case refused(Int)
        case valid(Int)
        case failed
    }

    /// The key class of the advisory locks that order AUTHs per source address (`pg_advisory_xact_lock(class,
    /// hashtext(address::inet::text))`); its own key space, apart from the single-key locks of migrations and week
    /// rankings.
    public static let guessingLockClass: Int32 = 0x4C41_5554

    /// Decides an AUTH against `source`'s allowance, one AUTH of the source at a time across every instance, in the
    /// order they reach the address's lock (an advisory lock of the transaction's, which PostgreSQL grants first come,
    /// first served; on one instance they reach it in order of arrival, ``AddressTurns``), so that no failure is
    /// checked beyond the allowance however many AUTHs come at once, and a valid token sent among guesses gets no
    /// turn ahead of those that reached the lock before it. `whenLocked` runs once this AUTH holds the lock. The token
    /// is looked up only once the AUTH is not refused: a refusal's answer and its time say nothing of the token. A
    /// valid token writes nothing here, so its turn ends at the commit of a transaction that wrote nothing (no WAL
    /// flush): a crowd of devices behind one address reconnecting at once takes turns of a few reads each, not of a
    /// commit each. A failure stores the spent allowance before its turn ends. (A row lock on the source's row, as
    /// before, had every AUTH write the row and flush it; a shared one would let a valid token in ahead of guesses
    /// waiting their turn.)
    private static func decide(
        token: String, from source: GuessingSource, at now: Date, on connection: PostgresConnection,
        whenLocked: () -> Void
    ) throws -> GuessingDecision {
        try connection.transaction { connection in
            // The address as PostgreSQL's inet prints it, so that two spellings of one address are one lock.
            try connection.execute(
                "SELECT pg_advisory_xact_lock(\(guessingLockClass), hashtext($1::inet::text))", [.text(source.address)])
            whenLocked()
            // Statements of their own after the lock: their snapshots have every decision committed before this turn.
            let row = try connection.query(
                """
                SELECT available, \(PostgresTimestamp.column("spent_at", as: "spent_us"))
                  FROM laurel.auth_failures WHERE source = $1::inet
                """, [.text(source.address)]).first
            var allowance = FailedAuthAllowance(
                available: try row?.optionalDouble("available"),
                at: try row?.optionalInt("spent_us").map(PostgresTimestamp.date(microseconds:)))
            if let wait = allowance.refusal(at: now, limit: source.limit) { return .refused(wait) }
            let owner = try connection.query(
                """
                SELECT t.user_id FROM laurel.tokens t
                 WHERE t.digest = sha256(convert_to($1::text, 'UTF8')) AND t.revoked_at IS NULL LIMIT 1
                """, [.text(token)]).first?.int("user_id")
            if let owner { return .valid(owner) }
            allowance.spendFailure(at: now, limit: source.limit)
            try connection.execute(
                """
                INSERT INTO laurel.auth_failures (source, available, spent_at)
                VALUES ($1::inet, $2::double precision, \(PostgresTimestamp.parameter(3)))
                ON CONFLICT (source) DO UPDATE SET available = EXCLUDED.available, spent_at = EXCLUDED.spent_at
                """, [.text(source.address), PostgresValue(allowance.available), PostgresValue(allowance.spentAt.map(PostgresTimestamp.microseconds))])
            return .failed
        }
    }

    /// The user a row of `id` and `name` names.
    private static func user(of row: PostgresRow) throws -> AuthenticatedUser {
        AuthenticatedUser(id: UserID(Int64(try row.int("id"))), name: try row.string("name"))
    }
}
