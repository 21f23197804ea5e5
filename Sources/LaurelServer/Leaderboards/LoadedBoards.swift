import Foundation
import LaurelCore
import LaurelStore
import Logging
import Synchronization

/// The board keys this instance ranks in memory (docs/leaderboards.md, "Ranks in memory"): each key asked for is
/// read once from the day scores into a ``RankedBoard`` and then kept up to date, so a page, a rank or a friends'
/// board is a few lookups however many users the key has.
///
/// How it stays right: this instance's commits are applied as they commit, in version order (``committed(_:)``);
/// a commit announced by another instance, a decrease (a deleted log can move `reached_at` back) or a gap in a
/// user's versions marks the user, and the marked users are read again from the store every
/// `boardRefreshInterval` (absolute scores with their version, so the order of arrival does not matter). While a key
/// is read, every change to it is also noted and applied again once the reading is in: versions let a change the
/// reading already holds pass. Keys not asked for in `idleBoardLifetime` are dropped, and the others read again
/// every `boardReloadInterval` (for what no announcement tells: an operator's refill); at most `maxHeldBoards` are
/// held, the one asked for least lately making room for a new one.
final class LoadedBoards: Sendable {
    /// A change to a key, as applied to its board and noted for a reading in progress.
    private enum Change {
        case committed(UserID, version: Int64, delta: Int, reachedMicroseconds: Int, optedOut: Bool?)
        case read(StoredStanding)
        case removed(UserID)
    }

    private struct Slot {
        var board: RankedBoard?
        /// Changes since a reading of the key began; nil when none is in progress.
        var noted: [Change]?
        var lastAsked: ContinuousClock.Instant
        var loadedAt: ContinuousClock.Instant
    }

    private struct State {
        var slots: [BoardKey: Slot] = [:]
        var readings: [BoardKey: Task<Void, any Error>] = [:]
        /// Users whose commits other instances announced, with the newest version announced.
        var announced: [UserID: Int64] = [:]
        /// This instance's commits since the last refresh: their announcements need no reading.
        var committedHere: [UserID: Int64] = [:]
        /// Users to read again whatever was announced: a gap, a decrease, a first entry, a failed reading.
        var mustRead: Set<UserID> = []
        /// Accounts deleted since the refresh before last: a reading from before the deletion must not bring them back.
        var forgotten: Set<UserID> = []
    }

    private let state = Mutex(State())
    private let store: any LaurelStore
    private let logger: Logger
    /// The most keys held at once: each costs about 80 bytes a user on it.
    private let maxKeys: Int

    init(store: any LaurelStore, maxKeys: Int, logger: Logger) {
        self.store = store
        self.maxKeys = max(1, maxKeys)
        self.logger = logger
    }

    // MARK: reading

    /// A page of `key` for `asker`: global, or among `friends` (then the asker and those users). A friends board of
    /// a past key not held is read for those users alone, so that old keys asked once are not held whole; a current
    /// key (`current`) is held, as its global board soon would be: a few hundred users' day rows cost PostgreSQL a
    /// few milliseconds a request, which at hundreds of requests a second is more than a machine has.
    func page(
        of key: BoardKey, current: Bool, asker: UserID, friends: Set<UserID>?, start: RankedBoard.PageStart, limit: Int
    ) async throws -> RankedBoard.Page {
        if let friends, !current {
            let held = state.withLock { state -> RankedBoard.Page? in
                guard let board = state.slots[key]?.board else { return nil }
                state.slots[key]?.lastAsked = .now
                return board.page(asker: asker, friends: friends, start: start, limit: limit)
            }
            if let held { return held }
            let users = Array(friends.union([asker]))
            let read = try await store.boardStandings(of: users, on: [key])[key] ?? []
            let board = RankedBoard(entries: Dictionary(read.map { ($0.user, $0.entry) }, uniquingKeysWith: { first, _ in first }))
            return board.page(asker: asker, friends: friends, start: start, limit: limit)
        }
        while true {
            let (page, reading): (RankedBoard.Page?, Task<Void, any Error>?) = state.withLock { state in
                if let board = state.slots[key]?.board {
                    state.slots[key]?.lastAsked = .now
                    return (board.page(asker: asker, friends: friends, start: start, limit: limit), nil)
                }
                if let reading = state.readings[key] { return (nil, reading) }
                // At the limit, the key asked for least lately makes room (one being read stays).
                let held = state.slots.filter { state.readings[$0.key] == nil }
                if held.count >= maxKeys, let oldest = held.min(by: { $0.value.lastAsked < $1.value.lastAsked })?.key {
                    state.slots[oldest] = nil
                }
                let reading = Task { try await self.read(key) }
                state.readings[key] = reading
                return (nil, reading)
            }
            if let page { return page }
            try await reading?.value
        }
    }

    /// Reads `key` from the store and installs it, with the changes noted meanwhile applied on top.
    private func read(_ key: BoardKey) async throws {
        state.withLock { state in
            if state.slots[key] == nil {
                state.slots[key] = Slot(board: nil, noted: [], lastAsked: .now, loadedAt: .now)
            } else {
                state.slots[key]?.noted = []
            }
        }
        do {
            var board = Self.board(from: try await store.boardStandings(on: key))
            state.withLock { state in
                for change in state.slots[key]?.noted ?? [] where Self.needsReading(Self.apply(change, to: &board)) {
                    if case .committed(let user, _, _, _, _) = change { state.mustRead.insert(user) }
                }
                state.slots[key]?.board = board
                // The slot's board is the only reference from here: a change applied to it must not copy it whole.
                board = RankedBoard()
                state.slots[key]?.noted = nil
                state.slots[key]?.loadedAt = .now
                state.readings[key] = nil
            }
        } catch {
            state.withLock { state in
                if state.slots[key]?.board == nil { state.slots[key] = nil } else { state.slots[key]?.noted = nil }
                state.readings[key] = nil
            }
            throw error
        }
    }

    // MARK: changes

    /// A commit of this instance: its score changes applied to every key held, in the user's version order
    /// (`writes`: the decision's, which its commit holds).
    func committed(_ user: UserID, version: Int64, decision: Decision, writes: ProgressWrites) {
        state.withLock { state in
            guard !state.slots.isEmpty else { return }
            state.committedHere[user] = version
            let deltas = writes.scores.deltas
            let reached = decision.decidedAt.microsecondsSince1970
            // The opt-out as it stands, so that a first entry on a key is made right too.
            let optedOut = !decision.progress.settings.leaderboards
            // A decrease can move a key's `reached_at` back, and two days moving one key by opposite amounts leave its
            // sum as it was but its `reached_at` not: both are read again.
            var readAgain = writes.scores.days.contains { $0.delta < 0 }
            // Keys first: mutating a slot while iterating the dictionary would copy every board in it.
            for key in Array(state.slots.keys) {
                let change = Change.committed(user, version: version, delta: deltas[key] ?? 0, reachedMicroseconds: reached, optedOut: optedOut)
                if Self.needsReading(Self.note(change, in: &state.slots[key]!)) { readAgain = true }
            }
            if readAgain { state.mustRead.insert(user) }
        }
    }

    /// A commit announced by any instance: one not made here marks the user to be read again.
    func heard(_ user: UserID, version: Int64) {
        state.withLock { state in
            guard !state.slots.isEmpty, (state.committedHere[user] ?? -1) < version else { return }
            state.announced[user] = max(state.announced[user] ?? 0, version)
        }
    }

    /// A deleted account leaves every key.
    func forget(_ user: UserID) {
        state.withLock { state in
            guard !state.slots.isEmpty else { return }
            state.forgotten.insert(user)
            state.announced[user] = nil
            state.mustRead.remove(user)
            for key in Array(state.slots.keys) { _ = Self.note(.removed(user), in: &state.slots[key]!) }
        }
    }

    /// Announcements may have been missed (the store's listener reconnected): every key is read again.
    func readEverythingAgain() {
        let keys = state.withLock { Array($0.slots.keys) }
        for key in keys { startReading(key) }
    }

    /// Reads the marked users again, drops keys nobody asked for, and reads old keys again.
    func refresh(idleLifetime: Duration, reloadAfter reload: Duration) async {
        let (users, keys, stale, forgotten) = state.withLock { state in
            // Announcements of commits made here, heard before their commit was applied, need no reading.
            let users = Array(state.mustRead.union(state.announced.filter { (state.committedHere[$0.key] ?? -1) < $0.value }.keys))
            state.announced = [:]
            state.committedHere = [:]
            state.mustRead = []
            // Refreshes run one at a time: a deletion before this one's reading is what it must not undo.
            let forgotten = state.forgotten
            state.forgotten = []
            let now = ContinuousClock.now
            let idle = state.slots.filter { $0.value.board != nil && now - $0.value.lastAsked > idleLifetime && state.readings[$0.key] == nil }.map(\.key)
            for key in idle { state.slots[key] = nil }
            let stale = state.slots.filter { $0.value.board != nil && now - $0.value.loadedAt > reload && state.readings[$0.key] == nil }.map(\.key)
            return (users, Array(state.slots.keys), stale, forgotten)
        }
        for key in stale { startReading(key) }
        guard !users.isEmpty, !keys.isEmpty else { return }
        do {
            let read = try await store.boardStandings(of: users, on: keys)
            state.withLock { state in
                let forgotten = forgotten.union(state.forgotten)
                for (key, standings) in read where state.slots[key] != nil {
                    for standing in standings where !forgotten.contains(standing.user) {
                        _ = Self.note(.read(standing), in: &state.slots[key]!)
                    }
                }
            }
        } catch {
            // Read at the next refresh.
            state.withLock { state in state.mustRead.formUnion(users) }
            logger.warning("could not read board scores again", metadata: ["error": "\(error)"])
        }
    }

    private func startReading(_ key: BoardKey) {
        state.withLock { state in
            guard state.readings[key] == nil, state.slots[key] != nil else { return }
            state.readings[key] = Task { try? await self.read(key) }
        }
    }

    private static func needsReading(_ application: RankedBoard.Application) -> Bool {
        application == .gap || application == .appliedToUnknown
    }

    /// A board of the standings read. Made apart so that nothing else holds its entries: the changes applied to it
    /// next would otherwise copy them whole.
    private static func board(from stored: [StoredStanding]) -> RankedBoard {
        var entries: [UserID: RankedBoard.Entry] = [:]
        entries.reserveCapacity(stored.count)
        for standing in stored { entries[standing.user] = standing.entry }
        return RankedBoard(entries: entries)
    }

    /// Applies `change` to the slot's board and notes it for a reading in progress.
    private static func note(_ change: Change, in slot: inout Slot) -> RankedBoard.Application {
        slot.noted?.append(change)
        guard slot.board != nil else { return .applied }
        return apply(change, to: &slot.board!)
    }

    private static func apply(_ change: Change, to board: inout RankedBoard) -> RankedBoard.Application {
        switch change {
        case .committed(let user, let version, let delta, let reached, let optedOut):
            return board.apply(user, version: version, delta: delta, reachedMicroseconds: reached, optedOut: optedOut)
        case .read(let standing):
            board.set(standing.user, to: standing.entry)
            return .applied
        case .removed(let user):
            board.remove(user)
            return .applied
        }
    }
}
