/// One board key as an instance holds it in memory: each user's score there with the store version it reflects, and the
/// global order (users who opted out left out; friends' boards list them). Built from the stored day scores, then
/// kept up to date by this instance's own commits, applied in version order, and by entries read again from the store;
/// versions make both safe in any interleaving: a change already reflected is not applied twice, and one that comes
/// after a gap makes the caller read the user again.
public struct RankedBoard: Sendable {
    /// A user's score on the key. A score of 0 stays as a mark of the version it reflects, off the order.
    public struct Entry: Hashable, Sendable {
        public var score: Int
        public var reachedMicroseconds: Int
        public var optedOut: Bool
        public var version: Int64

        public init(score: Int, reachedMicroseconds: Int, optedOut: Bool, version: Int64) {
            self.score = score
            self.reachedMicroseconds = reachedMicroseconds
            self.optedOut = optedOut
            self.version = version
        }
    }

    /// What became of a commit's change.
    public enum Application: Equatable, Sendable {
        case applied
        /// The entry reflects this version already (read after the commit).
        case alreadyHeld
        /// A commit between the entry's version and this one is missing: the user is to be read again.
        case gap
        /// Applied to a user the board had no entry for: what the user had before is not known here (another
        /// instance may have raised it), so the user is to be read again.
        case appliedToUnknown
    }

    public private(set) var entries: [UserID: Entry]
    private var order: OrderedStandings

    public init(entries: [UserID: Entry] = [:]) {
        self.entries = entries
        order = OrderedStandings(entries.compactMap { user, entry in Self.ranked(user, entry) })
    }

    /// Users on the global order.
    public var total: Int { order.count }

    /// The user's standing, opted out or not; nil without a score.
    public func standing(of user: UserID) -> BoardStanding? {
        entries[user].flatMap { $0.score > 0 ? BoardStanding(score: $0.score, reachedMicroseconds: $0.reachedMicroseconds, user: user) : nil }
    }

    /// Sets the user's entry as read from the store at `entry.version`, unless a later version is held.
    public mutating func set(_ user: UserID, to entry: Entry) {
        if let held = entries[user], held.version > entry.version { return }
        replace(user, with: entry)
    }

    /// Applies a commit of the user at `version` that moved the score by `delta` (0 for a commit that did not touch
    /// this key), rising at `reachedMicroseconds`, and set the opt-out when `optedOut` is not nil.
    public mutating func apply(
        _ user: UserID, version: Int64, delta: Int, reachedMicroseconds: Int, optedOut: Bool? = nil
    ) -> Application {
        guard let held = entries[user] else {
            // Not on the key when it was read, nor since: the commit came after the reading. Only a rise makes an entry.
            guard delta > 0 else { return .applied }
            replace(user, with: Entry(score: delta, reachedMicroseconds: reachedMicroseconds, optedOut: optedOut ?? false, version: version))
            return .appliedToUnknown
        }
        if held.version >= version { return .alreadyHeld }
        guard held.version == version - 1 else { return .gap }
        var entry = held
        entry.version = version
        entry.score += delta
        if delta > 0 { entry.reachedMicroseconds = max(entry.reachedMicroseconds, reachedMicroseconds) }
        if let optedOut { entry.optedOut = optedOut }
        replace(user, with: entry)
        return .applied
    }

    /// Forgets the user (a deleted account).
    public mutating func remove(_ user: UserID) {
        if let held = entries.removeValue(forKey: user), let standing = Self.ranked(user, held) { order.remove(standing) }
    }

    private mutating func replace(_ user: UserID, with entry: Entry) {
        if let held = entries[user], let standing = Self.ranked(user, held) { order.remove(standing) }
        entries[user] = entry
        if let standing = Self.ranked(user, entry) { order.insert(standing) }
    }

    private static func ranked(_ user: UserID, _ entry: Entry) -> BoardStanding? {
        entry.score > 0 && !entry.optedOut ? BoardStanding(score: entry.score, reachedMicroseconds: entry.reachedMicroseconds, user: user) : nil
    }

    // MARK: pages

    /// Where a page starts.
    public enum PageStart: Sendable, Equatable {
        case top
        /// After this standing (the last of an earlier page), wherever it now falls.
        case after(BoardStanding)
        /// Around the asker: the asker at position ⌊limit/2⌋, shifted at either end; the first page without a score.
        case aroundAsker
    }

    /// A standing with its rank on the board it was read from.
    public struct RankedStanding: Hashable, Sendable {
        public var rank: Int
        public var standing: BoardStanding
    }

    /// A page: its standings, the asker's, the users on the board and whether more follow.
    public struct Page: Sendable, Equatable {
        public var entries: [RankedStanding]
        public var asker: RankedStanding?
        public var total: Int
        public var hasMore: Bool
    }

    /// A page of the global board (`friends` nil) or of the board of the asker and `friends` (opted-out users included).
    public func page(asker: UserID, friends: Set<UserID>?, start: PageStart, limit: Int) -> Page {
        if let friends {
            var standings = friends.union([asker]).compactMap(standing(of:))
            standings.sort()
            return Self.page(of: OrderedStandings(standings), asker: standing(of: asker), start: start, limit: limit)
        }
        let mine = entries[asker].flatMap { Self.ranked(asker, $0) }
        return Self.page(of: order, asker: mine, start: start, limit: limit)
    }

    private static func page(of order: OrderedStandings, asker: BoardStanding?, start: PageStart, limit: Int) -> Page {
        let mine = asker.map { RankedStanding(rank: order.position(of: $0) + 1, standing: $0) }
        let first: Int
        switch start {
        case .top:
            first = 0
        case .after(let cursor):
            first = order.position(of: cursor) + (order.contains(cursor) ? 1 : 0)
        case .aroundAsker:
            first = mine.map { max(0, min($0.rank - 1 - limit / 2, order.count - limit)) } ?? 0
        }
        let entries = order.standings(from: first, limit: limit).enumerated().map { RankedStanding(rank: first + $0 + 1, standing: $1) }
        return Page(entries: entries, asker: mine, total: order.count, hasMore: first + entries.count < order.count)
    }
}
