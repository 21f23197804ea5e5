import CoreMetrics
import DequeModule
import Foundation

/// A unit of work waiting for a pool connection. Exactly one of `run` and `fail` is called.
struct PoolJob: Sendable {
    let id: UInt64
    let run: @Sendable (PostgresConnection) -> Void
    let fail: @Sendable (any Error) -> Void
}

/// The pool's first-in, first-out line of waiting work. Every database thread of the pool takes
/// its next job from here, so whichever connection frees up first serves the oldest waiter.
final class PoolJobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: Deque<PoolJob> = []
    private var isClosed = false
    private var runningWorkers: Int
    private var stopWaiters: [CheckedContinuation<Void, Never>] = []
    private var lastJobID: UInt64 = 0
    /// Reports how many jobs wait.
    private let depth: CoreMetrics.Gauge

    init(workers: Int, depth: CoreMetrics.Gauge) {
        runningWorkers = workers
        self.depth = depth
    }

    var queuedCount: Int {
        condition.withLock { jobs.count }
    }

    func makeJobID() -> UInt64 {
        condition.withLock {
            lastJobID += 1
            return lastJobID
        }
    }

    /// Adds a job at the back; false when the pool is closed and the job was not taken.
    func enqueue(_ job: PoolJob) -> Bool {
        condition.withLock {
            guard !isClosed else { return false }
            jobs.append(job)
            depth.record(jobs.count)
            condition.signal()
            return true
        }
    }

    /// Takes a job back out if no thread has started it yet (its caller was cancelled).
    func removeQueued(id: UInt64) -> PoolJob? {
        condition.withLock {
            guard let index = jobs.firstIndex(where: { $0.id == id }) else { return nil }
            return jobs.remove(at: index)
        }
    }

    /// Blocks the calling database thread until there is a job, or returns nil once the pool closes.
    func next() -> PoolJob? {
        condition.withLock {
            while !isClosed && jobs.isEmpty {
                condition.wait()
            }
            defer { depth.record(jobs.count) }
            return jobs.popFirst()
        }
    }

    /// Stops taking jobs and returns those still waiting, for the caller to fail. Threads finish
    /// the job they are running, then see the queue closed and stop.
    func close() -> [PoolJob] {
        condition.withLock {
            isClosed = true
            let abandoned = Array(jobs)
            jobs.removeAll()
            condition.broadcast()
            return abandoned
        }
    }

    /// Called by each database thread as its last act.
    func workerStopped() {
        let waiters: [CheckedContinuation<Void, Never>] = condition.withLock {
            runningWorkers -= 1
            guard runningWorkers == 0 else { return [] }
            defer { stopWaiters.removeAll() }
            return stopWaiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    func waitUntilWorkersStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let stopped = condition.withLock {
                if runningWorkers == 0 { return true }
                stopWaiters.append(continuation)
                return false
            }
            if stopped {
                continuation.resume()
            }
        }
    }
}
