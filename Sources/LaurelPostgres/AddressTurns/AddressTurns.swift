import CoreMetrics
import Synchronization

/// Inside one instance, the AUTHs from one source address take turns here before one of them takes a pool
/// connection and waits for the address's lock (an advisory lock, which orders them across instances).
///
/// An AUTH that waited for the advisory lock held its pool connection meanwhile: a crowd of devices behind one address
/// (a carrier's NAT, an office, every device reconnecting after a restart) held every connection of the pool, one of
/// them deciding and the rest waiting, and every other user's commits waited for a connection behind them; a turn
/// held up in another instance would have stopped this one's writes altogether. Waiting here, in arrival order, an
/// address's turn holds two connections of each instance at most: the AUTH that has the lock, and the one next in line
/// (a valid AUTH then writes its user's `last_seen_at` on its connection, out of the turn).
final class AddressTurns: Sendable {
    private let line = Mutex(AddressTurnLine<CheckedContinuation<Void, Never>>())
    /// AUTHs waiting here for their address's turn (`laurel_auth_turns_waiting`).
    private let waiting: CoreMetrics.Gauge

    init(metrics: any MetricsFactory) {
        waiting = CoreMetrics.Gauge(label: "laurel_auth_turns_waiting", factory: metrics)
    }

    /// Waits until it is the turn of this AUTH from `address`: every AUTH from it that asked before holds or has held
    /// the address's lock.
    func take(_ address: String) async -> Turn {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = line.withLock { line in
                let now = line.arrive(from: address, continuation)
                // Under the lock: recorded after it, two changes could land in the wrong order and stay so.
                if !now { waiting.record(line.waitingCount) }
                return now
            }
            if now { continuation.resume() }
        }
        return Turn(address: address, turns: self)
    }

    /// How many AUTHs wait here, over every address.
    var waitingCount: Int { line.withLock { $0.waitingCount } }

    /// A turn taken. ``end()`` hands it to the next AUTH from the address: as soon as this one holds the address's
    /// lock (the next then waits at the lock, ready when this one's decision commits), and in any case once the AUTH
    /// is answered.
    final class Turn: Sendable {
        let address: String
        private let turns: AddressTurns
        private let ended = Atomic<Bool>(false)

        fileprivate init(address: String, turns: AddressTurns) {
            self.address = address
            self.turns = turns
        }

        /// Ends the turn; a second call does nothing.
        func end() {
            guard ended.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
            turns.pass(address)
        }
    }

    private func pass(_ address: String) {
        let next = line.withLock { line in
            let next = line.leave(from: address)
            if next != nil { waiting.record(line.waitingCount) }
            return next
        }
        next?.resume()
    }
}
