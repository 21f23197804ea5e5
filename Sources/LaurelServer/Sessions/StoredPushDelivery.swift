import CoreMetrics
import LaurelCore
import LaurelStore
import Synchronization

/// Brings pushes stored elsewhere (another instance's LOG, an operator's grant, the end of a premium period) to
/// this instance's connections without holding up the store's other events. Each announced user is caught up on
/// a task of its own, one at a time per user; seqs announced while it runs make it run once more, up to the newest.
/// (Caught up one after the other, every user waited for every earlier user's read: under two instances' load the
/// pushes fell seconds behind.) Pushes announced with their commit are delivered as they came; only those that
/// did not come with it are read back.
final class StoredPushDelivery: Sendable {
    /// A user being caught up: the newest seq announced, and the pushes that came with the announcements meanwhile.
    private struct Announced {
        var newest: Int64
        var pushes: [Int64: StoredPush]

        mutating func add(_ more: [StoredPush]) {
            for push in more { pushes[push.seq] = push }
        }
    }

    /// The users being caught up now.
    private let announced = Mutex<[UserID: Announced]>([:])
    private let registry: SessionRegistry
    private let store: any LaurelStore
    private let metrics: ServerMetrics

    init(registry: SessionRegistry, store: any LaurelStore, metrics: ServerMetrics) {
        self.registry = registry
        self.store = store
        self.metrics = metrics
    }

    /// Pushes up to `seq` are stored for `user` (`pushes` of them came with the announcement): the user's connections
    /// here get those they have not had.
    func announce(_ user: UserID, through seq: Int64, pushes: [StoredPush] = []) {
        let starts = announced.withLock { announced in
            if var pending = announced[user] {
                pending.newest = max(pending.newest, seq)
                pending.add(pushes)
                announced[user] = pending
                return false
            }
            var pending = Announced(newest: seq, pushes: [:])
            pending.add(pushes)
            announced[user] = pending
            return true
        }
        guard starts else { return }
        metrics.pushCatchUps.increment()
        Task { await self.catchUp(user, through: seq) }
    }

    private func catchUp(_ user: UserID, through first: Int64) async {
        var seq = first
        while true {
            await settle(user, through: seq)
            let pushes = announced.withLock { $0[user]?.pushes ?? [:] }
            await registry.catchUp(user, through: seq, store: store, announced: pushes)
            let next: Int64? = announced.withLock { announced in
                guard var pending = announced[user], pending.newest > seq else {
                    announced[user] = nil
                    return nil
                }
                // Only what is still to come is kept: a user who writes without pause keeps this loop going.
                pending.pushes = pending.pushes.filter { $0.key > seq }
                announced[user] = pending
                return pending.newest
            }
            guard let next else { return }
            seq = next
        }
    }

    /// Lets a request of this instance that stored the pushes deliver them itself first: its announcement often
    /// arrives before the request has its answer (the notification leaves at commit). The user's writes ahead in
    /// the turn have committed once it comes round, and their pushes follow their answers a moment later. Without
    /// this, most LOGs with pushes cost a read of pushes already on their way (measured: 1,800 reads in a closed
    /// and an open loop on one instance).
    /// Pushes this instance did not store (its session holds an earlier last seq once its turn is through, or has them
    /// from a change another instance announced) were stored elsewhere: nothing here is about to deliver them, so they
    /// are read at once. (Waiting for them anyway cost every push from another instance 15 ms.)
    private func settle(_ user: UserID, through seq: Int64) async {
        guard let session = registry.session(of: user) else { return }
        _ = try? await session.inTurn {}
        guard let lastSeq = session.progress.lastSeqStoredHere, lastSeq >= seq else { return }
        for _ in 0..<Self.settlingChecks {
            guard await registry.hasUndelivered(user, through: seq) else { return }
            try? await Task.sleep(for: Self.settlingPause)
        }
    }

    private static let settlingChecks = 3
    private static let settlingPause = Duration.milliseconds(5)
}
