import LaurelCore
import LaurelStore
import Logging
import CoreMetrics

/// The store on PostgreSQL: reads run in a repeatable-read transaction on a pooled connection, on the pool's own
/// thread; every write of a user is one ``UserCommit``, stored by `laurel.commit_changes` (sql/functions) at the
/// version it was decided against, many users' commits in one statement and one transaction (group commit).
public final class PostgresStore: LaurelStore {
    let pool: PostgresPool
    let commits: GroupCommit<UserCommit, Result<CommitOutcome, StoreError>>
    /// The AUTHs from one source address, taking turns on this instance before they take a connection.
    let addressTurns: AddressTurns

    /// - Parameters:
    ///   - pool: the connections every unit of work runs on.
    ///   - maxCommitBatch: the most writes of different users stored in one transaction.
    ///   - commitFlushers: the most such batches in flight at once.
    ///   - metrics: where the commit batches' sizes and times go (`laurel_commit_batch_writes`,
    ///     `laurel_commit_batch_seconds`), and the AUTHs waiting for their address's turn
    ///     (`laurel_auth_turns_waiting`); nil for the process's metrics system.
    public init(pool: PostgresPool, maxCommitBatch: Int = 256, commitFlushers: Int = 2, metrics: (any MetricsFactory)? = nil) {
        self.pool = pool
        self.commits = GroupCommit(
            pool: pool, maxBatch: maxCommitBatch, maxFlushers: commitFlushers, metrics: metrics, flush: Self.storeCommits)
        self.addressTurns = AddressTurns(metrics: metrics ?? MetricsSystem.factory)
    }

    /// Opens every pool connection and plans on each the statements of every LOG (an empty batch stores nothing, and
    /// no user has id 0), so that a fresh instance's first requests do not wait for it: a connection's first
    /// `laurel.commit_changes` is planned for some 10 ms, its first `laurel.changes_since` (a session catching up
    /// with another instance's write) for some 8 ms, and any request may run on any connection. The statements a
    /// batch runs only when it has challenges or writes other than LOGs are planned too (some 7 ms each): a fresh
    /// instance's first second is every user's first LOG of the day, each choosing challenges.
    public func warmUp() async throws(StoreError) {
        do {
            try await pool.onEachConnection { connection in
                _ = try Self.storeCommits([], on: connection)
                try Self.planOccasionalCommitStatements(on: connection)
                do {
                    _ = try Self.changes(of: UserID(0), since: StoredPosition(version: 0, lastSeq: 0, seqs: FactSeqs()), periods: [], on: connection)
                } catch StoreError.unknownUser {}
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// Runs `laurel.store_challenge_changes` and `laurel.store_change_extras` with nothing to store, which plans
    /// their statements on `connection` (a function's statements are planned at its first call on a connection).
    /// The challenges' three statements each run only for an element that is there: '[]' is one, of nothing, for
    /// user 0, whom no one is, and the place -1 is one that no part of the empty batch has.
    static func planOccasionalCommitStatements(on connection: PostgresConnection) throws(PostgresError) {
        _ = try connection.query(
            "SELECT laurel.store_challenge_changes('{0}', '{0}', ARRAY['[]'::json], ARRAY['[]'::json], '{}'::laurel.commit_part[], '{-1}')")
        _ = try connection.query("SELECT laurel.store_change_extras('{}'::laurel.commit_part[], '{}', '{}', '{}')")
    }

    public func read<T: Sendable>(user: UserID, _ body: @escaping @Sendable (any UserReader) throws -> T) async throws -> T {
        do {
            return try await pool.transaction { connection in
                // One snapshot for the whole read, so that what it reads (the version with the facts it numbers)
                // belongs together.
                try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                return try body(PostgresUserReader(connection: connection, user: user))
            }
        } catch let error as PostgresError {
            throw StoreError(error)
        }
    }

    public func installCatalog(_ catalog: Catalog) async throws(StoreError) {
        do {
            try await pool.transaction { connection in
                for activity in catalog.activities {
                    try connection.execute(
                        """
                        INSERT INTO laurel.activities (id, name, unit, icon) VALUES ($1::text, $2::text, $3::text, $4::text)
                        ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, unit = EXCLUDED.unit, icon = EXCLUDED.icon
                        """, [.text(activity.id), .text(activity.name), .text(activity.unit.rawValue), PostgresValue(activity.icon)])
                }
                for achievement in catalog.achievements {
                    try connection.execute(
                        """
                        INSERT INTO laurel.achievements (id, name, category, tier, target, secret, catalog)
                        VALUES ($1::text, $2::text, $3::text, $4::text, $5::integer, $6::boolean, $7::text)
                        ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, category = EXCLUDED.category, tier = EXCLUDED.tier,
                            target = EXCLUDED.target, secret = EXCLUDED.secret, catalog = EXCLUDED.catalog
                        """,
                        [.text(achievement.id), .text(achievement.name), .text(achievement.category), .text(achievement.tier.rawValue),
                         .int(achievement.target), .bool(achievement.isSecret), .text(catalog.name)])
                }
            }
        } catch {
            throw StoreError(error)
        }
    }
}

extension StoreError {
    /// Connection trouble is `unavailable` (retry later); anything else is a failure with its reason.
    init(_ error: any Error) {
        switch error {
        case let error as StoreError:
            self = error
        case let error as PostgresError:
            switch error {
            case .connection(let message): self = .unavailable(message)
            case .poolClosed: self = .unavailable("the server is shutting down")
            default: self = .failed(String(describing: error))
            }
        default:
            self = .failed(String(describing: error))
        }
    }
}
