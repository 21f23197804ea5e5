import DequeModule

/// The bookkeeping of group commit, without any I/O or threads: the writes waiting, how many flushers run, when
/// another flusher is worth starting, and which writes leave together in the next batch. ``GroupCommit`` holds one
/// under a lock and does what its answers say; tests drive it alone.
///
/// A write that finds no flusher running starts one at once, so an idle server adds no wait; writes arriving while
/// batches are in flight queue up and leave together with the next one (at most `maxBatch`). Another flusher, up to
/// `maxFlushers`, starts only when `backlogPerFlusher` writes wait for each running one: under a steady moderate load
/// one flusher with its larger batches costs the database less than two with small ones, while a burst or a closed
/// loop still gets batches side by side.
struct GroupCommitLine<Waiter> {
    let maxBatch: Int
    let maxFlushers: Int
    let backlogPerFlusher: Int
    private(set) var waiting: Deque<Waiter> = []
    private(set) var flushers = 0

    init(maxBatch: Int, maxFlushers: Int, backlogPerFlusher: Int) {
        self.maxBatch = max(1, maxBatch)
        self.maxFlushers = max(1, maxFlushers)
        // A batch no larger than the backlog would leave writes waiting rounds while a connection sits idle.
        self.backlogPerFlusher = max(1, min(backlogPerFlusher, self.maxBatch))
    }

    /// What the caller of ``submit(_:)`` is to do.
    enum SubmitAction: Equatable {
        /// Start a flusher: it asks for batches until ``nextBatch()`` says stop.
        case startFlusher
        /// Nothing: a running flusher takes the write.
        case wait
    }

    /// A write arrives.
    mutating func submit(_ waiter: Waiter) -> SubmitAction {
        waiting.append(waiter)
        guard flushers < maxFlushers, waiting.count > flushers * backlogPerFlusher else { return .wait }
        flushers += 1
        return .startFlusher
    }

    /// A flusher is ready for its next batch: the oldest waiting writes, at most `maxBatch`, or nil when none wait
    /// (the flusher then stops, and the next write starts one again).
    mutating func nextBatch() -> [Waiter]? {
        guard !waiting.isEmpty else {
            flushers -= 1
            return nil
        }
        let count = min(maxBatch, waiting.count)
        var batch: [Waiter] = []
        batch.reserveCapacity(count)
        // Moved out one by one: a copy of the first `count` and then their removal cost every write a copy.
        for _ in 0..<count { batch.append(waiting.removeFirst()) }
        return batch
    }

    /// A flusher could not start (no database connection): it stops, and when it was the last one running, the
    /// writes waiting are given up (to be failed), since no flusher would take them.
    mutating func flusherFailed() -> [Waiter] {
        flushers -= 1
        guard flushers == 0 else { return [] }
        defer { waiting.removeAll() }
        return Array(waiting)
    }
}
