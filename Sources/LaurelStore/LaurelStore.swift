import LaurelCore

/// Everything the server keeps, seen from the server: authentication, and per-user units of work that run
/// inside one database transaction. The PostgreSQL implementation lives in LaurelPostgres; the server knows only
/// this protocol.
public protocol LaurelStore: Sendable {
    /// The user a token belongs to, or nil for an unknown or revoked token. Marks the user as seen.
    func authenticate(token: String) async throws(StoreError) -> AuthenticatedUser?

    /// Runs `body` against the user's records in a read-only transaction.
    func read<T: Sendable>(
        user: UserID, _ body: @escaping @Sendable (any UserRecords) throws -> T
    ) async throws -> T

    /// Runs `body` against the user's records in a transaction that holds the user's lock, so every writer
    /// of one user, on any server instance, goes one after the other. Returns after the commit.
    func write<T: Sendable>(
        user: UserID, _ body: @escaping @Sendable (any UserRecords) throws -> T
    ) async throws -> T

    /// Stores a LOG evaluated in the user's session, unless the user's state has moved on from the version it
    /// was evaluated at; commits of many users that arrive together share one transaction. Returns after the
    /// commit. A commit that fails (the user deleted, the database unreachable) throws and stores nothing.
    func commitLog(_ commit: LogCommit) async throws(StoreError) -> LogCommit.Outcome

    /// What LOG commits changed since a session's `version` (at which it knew pushes up to `lastSeq`), the logs
    /// after `afterLogSeq` among them and the stored challenges of the day `challengesOf` and its week, read in one
    /// statement; nil when something other than LOG commits changed the user's state since (the session then loads
    /// everything again).
    func logsSince(
        user: UserID, version: Int64, lastSeq: Int64, afterLogSeq: Int64, challengesOf day: LocalDay?
    ) async throws(StoreError) -> LogsSince?

    /// Stores the challenges chosen for periods that had none, in one statement: each period's choices are stored
    /// unless the period has some already (chosen meanwhile by another connection or instance), and the stored
    /// challenges of those periods are returned, in period and slot order. Choosing changes no figure, so the
    /// user's state version stays.
    func storeChallenges(user: UserID, _ choices: [ChallengeChoice]) async throws(StoreError) -> [StoredChallenge]

    /// The user's pushes stored after `seq`, oldest first, at most `limit`, in one statement: how an instance
    /// delivers pushes another one stored (a read transaction around it would cost three more round trips).
    func pushes(of user: UserID, after seq: Int64, limit: Int) async throws(StoreError) -> [StoredPush]

    /// Where each of these users' stored state stands, in one statement; a user missing from the answer was deleted.
    func marks(of users: [UserID]) async throws(StoreError) -> [UserID: UserMarks]

    /// Keeps the engine's state of the user at `version`, so that a later session need not rebuild it from the
    /// facts (it adds the logs stored after it); nothing happens when a newer state is stored already.
    func saveProgressState(user: UserID, state: String, version: Int64) async throws(StoreError)

    /// Whether the database answers a trivial statement now (for `/health`); never throws.
    func isReachable() async -> Bool

    /// Records the operator's limits where SQL run outside the server (an operator's functions) finds them.
    func recordLimits(_ limits: UserLimits) async throws(StoreError)

    /// Makes sure the catalog's built-in activities exist, so logs can refer to them, and records the catalog's
    /// achievements for the operators' statistics.
    func installCatalog(_ catalog: Catalog) async throws(StoreError)

    /// Tells users whose premium period has ended since the last call (by this or any other instance): stores a
    /// SUBSCRIPTION push for each whose subscription changed by it and announces it to every instance. Each end
    /// is announced once, however many instances call this at the same time. Returns the number of pushes stored.
    func announceExpiredSubscriptions() async throws(StoreError) -> Int
}

/// A user that presented a valid token.
public struct AuthenticatedUser: Sendable, Equatable {
    public var id: UserID
    public var name: String

    public init(id: UserID, name: String) {
        self.id = id
        self.name = name
    }
}

/// Why storage failed. `unavailable` means the database could not be reached (or broke during a commit, so the
/// outcome is unknown); the client may retry. `failed` is anything else, a bug or a broken invariant.
public enum StoreError: Error, Sendable, Equatable {
    case unavailable(String)
    /// The user no longer exists (deleted while connected).
    case unknownUser
    case failed(String)
}

/// Something that happened in the database outside this instance's requests (an operator's SQL, another
/// instance) and that concerns connected users.
public enum StoreEvent: Sendable, Equatable {
    case tokensRevoked(UserID)
    case userDeleted(UserID)
    /// The user has stored pushes up to `seq` (written by this or another instance).
    case pushesStored(UserID, seq: Int64)
    /// A write (of this or another instance) moved the user's state version to `version`.
    case stateVersion(UserID, version: Int64)
    /// The events start or start again after an interruption (the database connection that hears them was lost):
    /// any in between may be missing, so what connected users were shown is to be compared with the store
    /// (``LaurelStore/marks(of:)``).
    case resumed
}

/// Where a user's stored state stands: what the events about the user, had none been missed, would have said last.
public struct UserMarks: Sendable, Equatable {
    /// The version the user's last write left.
    public var stateVersion: Int64
    /// The seq of the user's newest stored push (0 before the first).
    public var lastSeq: Int64

    public init(stateVersion: Int64, lastSeq: Int64) {
        self.stateVersion = stateVersion
        self.lastSeq = lastSeq
    }
}
