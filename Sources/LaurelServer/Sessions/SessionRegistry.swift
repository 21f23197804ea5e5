import LaurelCore
import LaurelStore
import Synchronization

/// Who is connected on this instance: one `UserSession` per user, with the outlets of the user's connections.
/// Pushes fan out through it, and operator actions (revoked tokens, deleted users) close connections through it.
final class SessionRegistry: Sendable {
    private struct Entry {
        var session: UserSession
        var outlets: [ConnectionID: ConnectionOutlet]
    }

    private let entries = Mutex<[UserID: Entry]>([:])
    private let limits: UserLimits
    private let metrics: ServerMetrics

    init(limits: UserLimits, metrics: ServerMetrics) {
        self.limits = limits
        self.metrics = metrics
    }

    /// Adds a connection to its user's session, making the session if this is the user's first connection.
    func attach(_ outlet: ConnectionOutlet, to user: AuthenticatedUser) -> UserSession {
        entries.withLock { entries in
            if var entry = entries[user.id] {
                entry.outlets[outlet.id] = outlet
                entries[user.id] = entry
                return entry.session
            }
            let session = UserSession(user: user, limits: limits)
            entries[user.id] = Entry(session: session, outlets: [outlet.id: outlet])
            return session
        }
    }

    /// Removes a connection; returns the session when it was the user's last connection here (the session ends).
    @discardableResult
    func detach(_ connection: ConnectionID, from user: UserID) -> UserSession? {
        entries.withLock { entries in
            entries[user]?.outlets[connection] = nil
            guard let entry = entries[user], entry.outlets.isEmpty else { return nil }
            entries[user] = nil
            return entry.session
        }
    }

    /// The user's session here, if the user is connected.
    func session(of user: UserID) -> UserSession? {
        entries.withLock { $0[user]?.session }
    }

    func outlets(of user: UserID) -> [ConnectionOutlet] {
        entries.withLock { entries in entries[user].map { Array($0.outlets.values) } ?? [] }
    }

    /// Sends stored pushes to every connection of the user on this instance, in `seq` order.
    func deliver(_ pushes: [StoredPush], to user: UserID) async {
        guard !pushes.isEmpty else { return }
        for outlet in outlets(of: user) {
            for push in pushes { await outlet.deliver(push) }
            metrics.pushesDelivered.wrappingAdd(pushes.count, ordering: .relaxed)
        }
    }

    /// Delivers pushes stored up to `seq` (by this instance or another) to the user's connections here that
    /// have not had them; connections that have (the usual case on the instance that stored them) cost nothing.
    func catchUp(_ user: UserID, through seq: Int64, store: any LaurelStore) async {
        let outlets = outlets(of: user)
        var behind: [(ConnectionOutlet, Int64)] = []
        for outlet in outlets {
            let delivered = await outlet.deliveredThrough
            if delivered < seq { behind.append((outlet, delivered)) }
        }
        guard let oldest = behind.map(\.1).min() else { return }
        guard let missed = try? await store.read(user: user, { try $0.pushes(after: oldest, limit: 1000) }) else { return }
        for (outlet, _) in behind {
            for push in missed { await outlet.deliver(push) }
        }
    }

    func closeConnections(of user: UserID, reason: String) async {
        for outlet in outlets(of: user) { await outlet.close(reason: reason) }
    }
}
