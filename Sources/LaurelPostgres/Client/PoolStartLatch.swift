import Foundation

/// Holds each of `count` jobs on its database thread until all of them have started (or `timeout` passed), so that
/// `count` jobs on a pool of `count` threads run one on each thread.
final class PoolStartLatch: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var waiting: Int

    init(count: Int) {
        waiting = count
    }

    /// Counts this job as started and waits for the rest.
    func arriveAndWait(timeout: Duration) {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        condition.withLock {
            waiting -= 1
            if waiting <= 0 {
                condition.broadcast()
                return
            }
            while waiting > 0, condition.wait(until: deadline) {}
        }
    }
}
