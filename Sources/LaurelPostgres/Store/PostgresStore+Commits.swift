import LaurelCore
import LaurelJSON
import LaurelStore

/// Every write of a user is stored through `laurel.commit_changes` (sql/functions): one statement per batch of
/// users, each user's part checked against the version it was decided at and isolated from the rest.
extension PostgresStore {
    public func access(to user: UserID) -> any UserAccess {
        PostgresUserAccess(store: self, user: user)
    }

    func commit(_ commit: UserCommit) async throws(StoreError) -> CommitOutcome {
        let result: Result<CommitOutcome, StoreError>
        do {
            result = try await commits.submit(commit)
        } catch {
            throw StoreError(error)
        }
        return try result.get()
    }

    /// Stores one batch; one result per commit, in order. The batch runs first as one plain statement, and only if
    /// that fails (a part raised) again with each part isolated, so that one user's failure fails only that user.
    static func storeCommits(_ commits: [UserCommit], on connection: PostgresConnection) throws -> [Result<CommitOutcome, StoreError>] {
        // Ordered by user, so that concurrent batches take users' row locks in one order.
        let order = commits.indices.sorted { commits[$0].user.rawValue < commits[$1].user.rawValue }
        let batch = UserCommitBatch.bytes(commits, in: order)
        let sql = "SELECT outcome, new_version, new_last_seq, fact_seq, committed_us, detail FROM laurel.commit_changes($1::json, $2::boolean)"
        // Set by set needs one write per user (one session writes one at a time, so this is the rule).
        let onePerUser = Set(commits.map(\.user)).count == commits.count
        let rows: PostgresRows
        do {
            rows = try connection.query(sql, [.utf8(batch), .bool(!onePerUser)])
        } catch {
            guard onePerUser, !error.isConnectionError, !connection.isInTransaction else { throw error }
            rows = try connection.query(sql, [.utf8(batch), .bool(true)])
        }
        guard rows.count == commits.count else {
            throw PostgresError.decoding("a batch of \(commits.count) commits got \(rows.count) outcomes")
        }
        var results = [Result<CommitOutcome, StoreError>](repeating: .failure(.failed("not stored")), count: commits.count)
        for (index, row) in zip(order, rows) {
            results[index] = try outcome(of: commits[index], row)
        }
        return results
    }

    private static func outcome(of commit: UserCommit, _ row: PostgresRow) throws -> Result<CommitOutcome, StoreError> {
        switch try row.string("outcome") {
        case "committed":
            let lastSeq = Int64(try row.int("new_last_seq"))
            let at = PostgresTimestamp.date(microseconds: try row.int("committed_us"))
            let firstSeq = lastSeq - Int64(commit.pushes.count) + 1
            let pushes = commit.pushes.enumerated().map { index, draft in draft.stored(seq: firstSeq + Int64(index), at: at) }
            return .success(.committed(
                version: Int64(try row.int("new_version")), lastSeq: lastSeq, factSeq: try row.optionalInt("fact_seq").map(Int64.init),
                pushes: pushes))
        case "stale":
            return .success(.stale)
        case "duplicate":
            return .success(.duplicate)
        case "unknown_user":
            return .failure(.unknownUser)
        default:
            return .failure(.failed(try row.optionalString("detail") ?? "the write could not be stored"))
        }
    }
}

/// A user's stored state reached without a lock: reads in snapshots of their own, catch-ups in one statement, and
/// commits through the group commit, stored only at the version they were decided against.
struct PostgresUserAccess: UserAccess {
    let store: PostgresStore
    let user: UserID

    func read<T: Sendable>(_ body: @escaping @Sendable (any UserReader) throws -> T) async throws -> T {
        try await store.read(user: user, body)
    }

    func changes(since position: StoredPosition, periods: [ChallengeBook.Period]) async throws -> ProgressChanges? {
        let user = user
        do {
            return try await store.pool.withConnection { connection in
                try PostgresStore.changes(of: user, since: position, periods: periods, on: connection)
            }
        } catch {
            throw StoreError(error)
        }
    }

    func commit(_ commit: UserCommit) async throws -> CommitOutcome {
        try await store.commit(commit)
    }
}
