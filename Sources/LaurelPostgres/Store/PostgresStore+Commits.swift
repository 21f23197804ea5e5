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
        var results = [Result<CommitOutcome, StoreError>](repeating: .failure(.failed("not stored")), count: commits.count)
        // Ordered by user, so that concurrent batches take users' row locks in one order.
        var order: [Int] = []
        order.reserveCapacity(commits.count)
        for index in commits.indices {
            if let problem = UserCommitBatch.unwritable(commits[index]) { results[index] = .failure(.failed(problem)) } else { order.append(index) }
        }
        order.sort { commits[$0].user.rawValue < commits[$1].user.rawValue }
        let batch = UserCommitBatch.bytes(commits, in: order, partType: try connection.typeOID(of: "laurel.commit_part"))
        // Set by set needs one write per user (one session writes one at a time, so this is the rule). The stored
        // parts are in user order, and the unwritable ones store nothing.
        let onePerUser = zip(order, order.dropFirst()).allSatisfy { commits[$0].user != commits[$1].user }
        // A result that cannot be read is not retried (the batch ran): only a failed statement is.
        let read = { [results] (result: borrowing PostgresResultReader) -> Result<[Result<CommitOutcome, StoreError>], PostgresError> in
            do throws(PostgresError) {
                guard result.rowCount == order.count else {
                    throw PostgresError.decoding("a batch of \(order.count) commits got \(result.rowCount) outcomes")
                }
                try result.expectColumns(OutcomeColumn.names)
                var results = results
                for (row, index) in order.enumerated() {
                    results[index] = try outcome(of: commits[index], row: row, in: result)
                }
                return .success(results)
            } catch {
                return .failure(error)
            }
        }
        let outcomes: Result<[Result<CommitOutcome, StoreError>], PostgresError>
        do {
            outcomes = try connection.query(OutcomeColumn.statement, [.binary(batch), .bool(!onePerUser)], read: read)
        } catch {
            guard onePerUser, !error.isConnectionError, !connection.isInTransaction else { throw error }
            outcomes = try connection.query(OutcomeColumn.statement, [.binary(batch), .bool(true)], read: read)
        }
        return try outcomes.get()
    }

    /// `laurel.commit_changes`' result by position: a column's position is its case's place here, the statement
    /// selects the columns in that order, and every result is checked to have them there before it is read.
    private enum OutcomeColumn: Int32, CaseIterable {
        case outcome, newVersion, newLastSeq, factSeq, committedAt, detail

        var name: StaticString {
            switch self {
            case .outcome: "outcome"
            case .newVersion: "new_version"
            case .newLastSeq: "new_last_seq"
            case .factSeq: "fact_seq"
            case .committedAt: "committed_us"
            case .detail: "detail"
            }
        }

        static let names = allCases.map(\.name)
        static let statement = "SELECT " + names.map { "\($0)" }.joined(separator: ", ")
            + " FROM laurel.commit_changes($1::laurel.commit_part[], $2::boolean)"
    }

    private static func outcome(
        of commit: UserCommit, row: Int, in result: borrowing PostgresResultReader
    ) throws(PostgresError) -> Result<CommitOutcome, StoreError> {
        func required(_ column: OutcomeColumn) throws(PostgresError) -> Int {
            guard let value = try result.int(row: row, column: column.rawValue) else { throw .decoding("column \(column.name) is NULL") }
            return value
        }
        if result.value(row: row, column: OutcomeColumn.outcome.rawValue, is: "committed") {
            let lastSeq = Int64(try required(.newLastSeq))
            let at = PostgresTimestamp.date(microseconds: try required(.committedAt))
            let firstSeq = lastSeq - Int64(commit.pushes.count) + 1
            let pushes = commit.pushes.enumerated().map { index, draft in draft.stored(seq: firstSeq + Int64(index), at: at) }
            return .success(.committed(
                version: Int64(try required(.newVersion)), lastSeq: lastSeq,
                factSeq: try result.int(row: row, column: OutcomeColumn.factSeq.rawValue).map(Int64.init), pushes: pushes))
        }
        switch result.text(row: row, column: OutcomeColumn.outcome.rawValue) {
        case "stale": return .success(.stale)
        case "duplicate": return .success(.duplicate)
        case "unknown_user": return .failure(.unknownUser)
        case nil: throw .decoding("a commit's outcome is NULL")
        default: return .failure(.failed(result.text(row: row, column: OutcomeColumn.detail.rawValue) ?? "the write could not be stored"))
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
