import LaurelCore
import LaurelStore

/// The second route of a write: one transaction that holds the user's progress row lock (the lock every writer of
/// the user takes) while the write is caught up, decided and committed with the same statement as any other.
extension PostgresStore {
    public func withUserLocked<T: Sendable>(_ user: UserID, _ body: @Sendable (any UserAccess) async throws -> T) async throws -> T {
        do {
            return try await pool.withLease { lease in
                try await lease.run { connection in
                    try connection.simpleQuery("BEGIN")
                    guard try connection.query("SELECT 1 FROM laurel.progress WHERE user_id = $1::bigint FOR UPDATE", [.int(Int(user.rawValue))])
                        .first != nil else { throw StoreError.unknownUser }
                }
                let value = try await body(PostgresLockedUser(lease: lease, user: user))
                try await lease.run { connection in try connection.simpleQuery("COMMIT") }
                return value
            }
        } catch let error as PostgresError {
            throw StoreError(error)
        }
    }
}

/// A user held under the lock, on the leased connection of the locked transaction.
struct PostgresLockedUser: UserAccess {
    let lease: PostgresLease
    let user: UserID

    func read<T: Sendable>(_ body: @escaping @Sendable (any UserReader) throws -> T) async throws -> T {
        let user = user
        return try await lease.run { connection in try body(PostgresUserReader(connection: connection, user: user)) }
    }

    func changes(since position: StoredPosition, periods: [ChallengeBook.Period]) async throws -> ProgressChanges? {
        let user = user
        return try await lease.run { connection in try PostgresStore.changes(of: user, since: position, periods: periods, on: connection) }
    }

    func commit(_ commit: UserCommit) async throws -> CommitOutcome {
        try await lease.run { connection in try PostgresStore.storeCommits([commit], on: connection)[0].get() }
    }
}
