import Foundation
import LaurelCore
import LaurelJSON

/// Everything the server keeps, seen from the server. Every write of a user is one ``UserCommit``, stored only at
/// the version it was decided against; reads of a user run against one snapshot (``UserReader``). The PostgreSQL
/// implementation lives in LaurelPostgres; the server knows only this protocol.
public protocol LaurelStore: Sendable {
    /// The user a token belongs to, marked as seen; or an unknown (or revoked) token. With a `source`, the token
    /// counts only while that source address has failed AUTHs left (``FailedAuthAllowance`` under `limit`), and a
    /// failure spends one; AUTHs from one source are decided one at a time across instances, in order of arrival.
    func authenticate(token: String, from source: GuessingSource?, at now: Date) async throws(StoreError) -> Authentication

    /// Forgets the failed-AUTH allowances that are whole again (untouched for the limit's refill time).
    func forgetWholeAuthAllowances(at now: Date, limit: FailedAuthLimit) async throws(StoreError)

    /// Runs `body` against the user's stored state as one snapshot.
    func read<T: Sendable>(user: UserID, _ body: @escaping @Sendable (any UserReader) throws -> T) async throws -> T

    /// The user's stored state as a write reads and commits it without holding anything: reads in a snapshot of their
    /// own, commits stored only at the version they were decided against (many users' together, group commit).
    func access(to user: UserID) -> any UserAccess

    /// Runs `body` holding the user's lock, in one transaction: the route of a write that keeps finding its version
    /// moved on. Every other writer of the user waits meanwhile; `body` reads and commits through the access it gets.
    func withUserLocked<T: Sendable>(_ user: UserID, _ body: @Sendable (any UserAccess) async throws -> T) async throws -> T

    /// Keeps a session's running state, so that a later session adds the facts stored after it instead of reading
    /// every fact; nothing changes when a newer one is kept, or when a write since recomputed the state.
    func saveSnapshot(_ snapshot: ProgressSnapshot, of user: UserID) async throws(StoreError)

    /// The user's pushes stored after `seq`, oldest first, at most `limit`, in one statement: how an instance
    /// delivers pushes another one stored.
    func pushes(of user: UserID, after seq: Int64, limit: Int) async throws(StoreError) -> [StoredPush]

    /// Starts the user's trial (premium for 14 days, once per user ever) with the SUBSCRIPTION push that tells about
    /// it. Nil when the trial was used before; nothing changes then.
    func startTrial(of user: UserID) async throws(StoreError) -> StoredPush?

    /// Removes the user and all their data; every instance closes the user's connections.
    func deleteAccount(of user: UserID) async throws(StoreError)

    /// Where each of these users' stored state stands, in one statement; a user missing from the answer was deleted.
    func marks(of users: [UserID]) async throws(StoreError) -> [UserID: UserMarks]

    /// Publishes `template` of `author` with `description`, or publishes it again: the same listing (id and
    /// `published_at`) takes the template as it is now.
    func publish(
        _ template: AchievementTemplate, activityName: String?, combo: [ComboDraftPart], description: String, author: UserID
    ) async throws(StoreError) -> TemplateListing

    /// Removes the listing if `author` published it; false when there is no such listing of theirs.
    func unpublish(listing: String, author: UserID) async throws(StoreError) -> Bool

    /// A listing by id, nil when there is none (never published, or unpublished).
    func listing(_ id: String) async throws(StoreError) -> TemplateListing?

    /// A page of listings, and the cursor of the next page when there is one.
    func market(_ query: MarketQuery) async throws(StoreError) -> (listings: [TemplateListing], next: String?)

    /// Makes invite code `code` of `user`, open from `now` for ``InviteCode/validity``, unless the user has
    /// ``InviteCode/maximumOpen`` open already or the code exists.
    func createInvite(_ code: InviteCode, of user: UserID, at now: Date) async throws(StoreError) -> InviteCreation

    /// `user` accepts `code` at `now`: both sides' friendship and FRIEND pushes in one transaction, announced to every
    /// instance, unless the code is not open, is the user's own, they are friends already, or either side has
    /// `maxFriends`. `describe` renders a FRIEND push's object: the first user as the second one sees them.
    func acceptInvite(
        _ code: InviteCode, by user: UserID, at now: Date, maxFriends: Int,
        describe: @escaping @Sendable (_ friend: FriendFigures, _ since: Date) -> String
    ) async throws(StoreError) -> InviteAcceptance

    /// The user's friends, in the order the friendships began.
    func friends(of user: UserID) async throws(StoreError) -> [Friend]

    /// Ends the friendship of `user` and `friend` on both sides; false when they were not friends.
    func removeFriend(_ friend: UserID, of user: UserID) async throws(StoreError) -> Bool

    /// Accepted invites whose inviter's `invite` event is not recorded, accepted before `before`, oldest first.
    func invitesAwaitingInviterEvent(acceptedBefore before: Date, limit: Int) async throws(StoreError) -> [AcceptedInvite]

    /// Notes that the inviter's `invite` event of `code` is stored.
    func noteInviterEventRecorded(_ code: InviteCode) async throws(StoreError)

    /// Deletes the codes that expired unused before `before`.
    func forgetInvites(expiredBefore before: Date) async throws(StoreError)

    /// Every user with a score above 0 on a board key (opted-out users included), each with the user's version, in one
    /// snapshot: what an instance ranks the key from (rules.md, "Friends and leaderboards").
    func boardStandings(on key: BoardKey) async throws(StoreError) -> [StoredStanding]

    /// These users' scores on each of these keys (0 where they have none), with their versions, in one snapshot.
    func boardStandings(of users: [UserID], on keys: [BoardKey]) async throws(StoreError) -> [BoardKey: [StoredStanding]]

    /// The names of the user's friends, by id.
    func friendNames(of user: UserID) async throws(StoreError) -> [UserID: String]

    /// Users' names by id; unknown ids are left out.
    func userNames(_ users: [UserID]) async throws(StoreError) -> [UserID: String]

    /// Up to `limit` user ids after `after` (nil: from the first), in id order: how an operator's command visits
    /// every user a page at a time.
    func userIDs(after: UserID?, limit: Int) async throws(StoreError) -> [UserID]

    /// Rewrites the user's day scores with what `compute` makes of the user's stored state, read under the user's
    /// lock in the same transaction (no write of the user comes between). Returns the rows written; 0 for an unknown
    /// user.
    func refillDayScores(of user: UserID, _ compute: @escaping @Sendable (any UserReader) throws -> [BoardScores.DayScore]) async throws -> Int

    /// Ranks an ended week's global board for comparative goals (rules.md, "Comparative achievements"), unless it was
    /// ranked at or after `staleBefore` or another instance is ranking right now: stores the board's size and the
    /// ranks `TopPercentRule.ranksToKeep` asks for `goals`, and forgets the rankings of weeks before `oldestWeek`.
    /// Returns whether it ranked.
    func rankEndedWeek(
        _ week: ISOWeek, board: LeaderboardBoard, goals: [TopPercentGoal], at now: Date, staleBefore: Date, oldestWeek: ISOWeek
    ) async throws(StoreError) -> Bool

    /// The rarity of each achievement of the running catalog (rules.md, "Rarity"), by id.
    func achievementRarity() async throws(StoreError) -> [String: Double]

    /// Whether the database answers a trivial statement now (for `/health`); never throws.
    func isReachable() async -> Bool

    /// Records the operator's limits where SQL run outside the server (an operator's functions) finds them.
    func recordLimits(_ limits: UserLimits) async throws(StoreError)

    /// Makes sure the catalog's built-in activities exist, so logs can refer to them, and records the catalog's
    /// achievements for the operators' statistics.
    func installCatalog(_ catalog: Catalog) async throws(StoreError)

    /// Tells users whose premium period has ended since the last call (by this or any other instance): stores a
    /// SUBSCRIPTION push for each whose subscription changed by it and announces it to every instance. Each end is
    /// announced once, however many instances call this at the same time. Returns the number of pushes stored.
    func announceExpiredSubscriptions() async throws(StoreError) -> Int

    /// Tells every other instance that this one is running (``StoreEvent/instanceElsewhere(greeting:)``): as a
    /// `greeting` when it has just begun to hear the store's events, else as the answer to another's greeting.
    func announcePresence(greeting: Bool) async throws(StoreError)
}

/// How a write reaches one user's stored state: a read in one snapshot, a catch-up, and the commit. Without a lock
/// (``LaurelStore/access(to:)``) a commit is stored only at the version it was decided against; under the user's lock
/// (``LaurelStore/withUserLocked(_:_:)``) the same calls run in one transaction that no other writer of the user can
/// come between.
public protocol UserAccess: Sendable {
    /// Runs `body` against the user's stored state as one snapshot.
    func read<T: Sendable>(_ body: @escaping @Sendable (any UserReader) throws -> T) async throws -> T
    /// What was committed after a session's position, when a session can add it to what it holds; nil when something
    /// else changed (the session then loads the user again). One statement.
    func changes(since position: StoredPosition, periods: [ChallengeBook.Period]) async throws -> ProgressChanges?
    /// Stores a decided write, unless the user's state has moved on from the version it was decided against. Returns
    /// after the commit.
    func commit(_ commit: UserCommit) async throws -> CommitOutcome
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

/// What an AUTH's token came to.
public enum Authentication: Sendable, Equatable {
    case authenticated(AuthenticatedUser)
    /// No such token, or a revoked one.
    case unknownToken
    /// The source has no failed AUTH left: refused whatever the token.
    case refused(retryAfterMs: Int)
}

/// Where AUTHs come from, for their failures' allowance: a client's address (an IPv6 one by its /64 network), and the
/// limit it is held to.
public struct GuessingSource: Sendable, Equatable {
    /// The address in PostgreSQL's `inet` notation.
    public var address: String
    public var limit: FailedAuthLimit

    public init(address: String, limit: FailedAuthLimit) {
        self.address = address
        self.limit = limit
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
    /// A write (of this or another instance) moved the user's state to `version`, with pushes stored up to `lastSeq`,
    /// what it added to the user's progress when it was announced with it, and the pushes it stored (the last of
    /// them at `lastSeq`) when they were announced with it: an instance delivers those without reading them back.
    case committed(UserID, version: Int64, lastSeq: Int64, change: AnnouncedChange? = nil, pushes: [StoredPush] = [])
    /// Another instance is running, so users may have sessions on more than one: it began to hear the store's events
    /// and greets the others (`greeting`: each answers, so that it hears of them too), answered such a greeting, or
    /// committed writes its sessions decided (heard before those commits' own events).
    case instanceElsewhere(greeting: Bool)
    /// The events start or start again after an interruption (the database connection that hears them was lost):
    /// any in between may be missing, so what connected users were shown is to be compared with the store
    /// (``LaurelStore/marks(of:)``).
    case resumed
}

/// Where a user's stored state stands: what the events about the user, had none been missed, would have said last.
public struct UserMarks: Sendable, Equatable {
    /// The version the user's last write left.
    public var version: Int64
    /// The seq of the user's newest stored push (0 before the first).
    public var lastSeq: Int64

    public init(version: Int64, lastSeq: Int64) {
        self.version = version
        self.lastSeq = lastSeq
    }
}
