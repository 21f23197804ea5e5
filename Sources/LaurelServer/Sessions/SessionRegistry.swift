import CoreMetrics
import LaurelCore
import LaurelStore
import Synchronization

/// Who is connected on this instance: one `UserSession` per user, with the lineWriters of the user's connections.
/// Pushes fan out through it, and operator actions (revoked tokens, deleted users) close connections through it.
final class SessionRegistry: Sendable {
    private struct Entry {
        var session: UserSession
        var lineWriters: [ConnectionID: ConnectionLineWriter]
    }

    private let entries = Mutex<[UserID: Entry]>([:])
    private let metrics: ServerMetrics

    init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    /// Adds a connection to its user's session, making the session if this is the user's first connection.
    func attach(_ lineWriter: ConnectionLineWriter, to user: AuthenticatedUser) -> UserSession {
        entries.withLock { entries in
            if var entry = entries[user.id] {
                entry.lineWriters[lineWriter.id] = lineWriter
                entries[user.id] = entry
                return entry.session
            }
            let session = UserSession(user: user)
            entries[user.id] = Entry(session: session, lineWriters: [lineWriter.id: lineWriter])
            return session
        }
    }

    /// Removes a connection; returns the session when it was the user's last connection here (the session ends).
    @discardableResult
    func detach(_ connection: ConnectionID, from user: UserID) -> UserSession? {
        entries.withLock { entries in
            entries[user]?.lineWriters[connection] = nil
            guard let entry = entries[user], entry.lineWriters.isEmpty else { return nil }
            entries[user] = nil
            return entry.session
        }
    }

    /// The users connected here.
    var connectedUsers: [UserID] {
        entries.withLock { Array($0.keys) }
    }

    /// The user's session here, if the user is connected.
    func session(of user: UserID) -> UserSession? {
        entries.withLock { $0[user]?.session }
    }

    func lineWriters(of user: UserID) -> [ConnectionLineWriter] {
        entries.withLock { entries in entries[user].map { Array($0.lineWriters.values) } ?? [] }
    }

    /// Sends stored pushes to every connection of the user on this instance (but `requester`, which has them with its
    /// answer), in `seq` order.
    func deliver(_ pushes: [StoredPush], to user: UserID, except requester: ConnectionLineWriter? = nil) async {
        guard !pushes.isEmpty else { return }
        for lineWriter in lineWriters(of: user) where lineWriter !== requester {
            await lineWriter.deliver(pushes)
            metrics.pushesDelivered.increment(by: pushes.count)
        }
    }

    /// Whether a connection of the user here has not had every push up to `seq`.
    func hasUndelivered(_ user: UserID, through seq: Int64) async -> Bool {
        for lineWriter in lineWriters(of: user) where await lineWriter.deliveredThrough < seq { return true }
        return false
    }

    /// Delivers pushes stored up to `seq` (by this instance or another) to the user's connections here that
    /// have not had them; connections that have (the usual case on the instance that stored them) cost nothing.
    /// The pushes are read from the store unless `announced` (pushes that came with their commits' announcements,
    /// by seq) holds every one a connection lacks.
    func catchUp(_ user: UserID, through seq: Int64, store: any LaurelStore, announced: [Int64: StoredPush] = [:]) async {
        let lineWriters = lineWriters(of: user)
        var behind: [(ConnectionLineWriter, Int64)] = []
        for lineWriter in lineWriters {
            let delivered = await lineWriter.deliveredThrough
            if delivered < seq { behind.append((lineWriter, delivered)) }
        }
        guard let oldest = behind.map(\.1).min() else { return }
        var missed = oldest >= seq - Int64(announced.count) ? ((oldest + 1)...seq).compactMap { announced[$0] } : []
        if Int64(missed.count) != seq - oldest {
            metrics.pushCatchUpReads.increment()
            guard let read = try? await store.pushes(of: user, after: oldest, limit: 1000) else { return }
            missed = read
        }
        for (lineWriter, _) in behind {
            await lineWriter.deliver(missed)
        }
    }

    func closeConnections(of user: UserID, reason: String) async {
        for lineWriter in lineWriters(of: user) { lineWriter.close(reason: reason) }
    }
}
