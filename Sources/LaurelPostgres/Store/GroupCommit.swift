import Synchronization

/// Gathers the writes of many callers that arrive together and stores them as one batch, in one statement and
/// one transaction on one pooled connection, so they share a round trip and a WAL flush (group commit).
///
/// A write that finds no batch in flight starts one at once, so an idle server adds no wait; writes arriving
/// while a batch is in flight queue up and leave together with the next one (at most `maxBatch`). Another
/// flusher, up to `maxFlushers`, starts only when `backlogPerFlusher` writes wait for each running one: under a
/// steady moderate load one flusher with its larger batches costs the database less than two with small ones
/// (measured on 2 cores at 5,000 LOGs/s: p50 1.4 ms against 3.5 ms, p99 10-11 ms against 16-25 ms), while a
/// burst or a closed loop still gets batches side by side. `flush` turns a batch into one outcome per write, in order; when it throws (the
/// database is unreachable, or the statement as a whole failed), every write of that batch gets the error.
final class GroupCommit<Write: Sendable, Outcome: Sendable>: Sendable {
    typealias Flush = @Sendable ([Write], PostgresConnection) throws -> [Outcome]

    private struct Waiting: Sendable {
        let write: Write
        let continuation: CheckedContinuation<Outcome, any Error>
    }

    private struct Line: ~Copyable {
        var waiting: [Waiting] = []
        var flushers = 0
    }

    private let line = Mutex(Line())
    private let pool: PostgresPool
    private let maxBatch: Int
    private let maxFlushers: Int
    private let backlogPerFlusher: Int
    private let flush: Flush

    /// - Parameters:
    ///   - pool: where batches run.
    ///   - maxBatch: the most writes in one batch.
    ///   - maxFlushers: the most batches in flight at once (each holds one pool connection).
    ///   - backlogPerFlusher: how many writes must wait for each running flusher before another one starts.
    ///   - flush: stores one batch; runs on a database thread.
    init(pool: PostgresPool, maxBatch: Int = 256, maxFlushers: Int = 2, backlogPerFlusher: Int = 64, flush: @escaping Flush) {
        self.pool = pool
        self.maxBatch = max(1, maxBatch)
        self.maxFlushers = max(1, maxFlushers)
        // A batch no larger than the backlog would leave writes waiting rounds while a connection sits idle.
        self.backlogPerFlusher = max(1, min(backlogPerFlusher, maxBatch))
        self.flush = flush
    }

    /// Stores `write` with the next batch; returns its outcome once the batch has committed.
    func submit(_ write: Write) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let startsFlusher = line.withLock { line in
                line.waiting.append(Waiting(write: write, continuation: continuation))
                guard line.flushers < maxFlushers, line.waiting.count > line.flushers * backlogPerFlusher else { return false }
                line.flushers += 1
                return true
            }
            if startsFlusher { startFlusher() }
        }
    }

    private func startFlusher() {
        Task {
            do {
                try await pool.withConnection { connection in self.drain(on: connection) }
            } catch {
                // No connection: the writes this flusher would have taken fail, unless another flusher is
                // still running and will take them.
                let abandoned = line.withLock { line -> [Waiting] in
                    line.flushers -= 1
                    guard line.flushers == 0 else { return [] }
                    defer { line.waiting.removeAll() }
                    return line.waiting
                }
                for waiting in abandoned { waiting.continuation.resume(throwing: error) }
            }
        }
    }

    /// Stores batches on `connection` until nothing is waiting, then gives up its place as a flusher.
    private func drain(on connection: PostgresConnection) {
        while let batch = takeBatch() {
            do {
                let outcomes = try flush(batch.map(\.write), connection)
                guard outcomes.count == batch.count else {
                    throw PostgresError.decoding("a batch of \(batch.count) writes got \(outcomes.count) outcomes")
                }
                for (waiting, outcome) in zip(batch, outcomes) { waiting.continuation.resume(returning: outcome) }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }

    private func takeBatch() -> [Waiting]? {
        line.withLock { line in
            guard !line.waiting.isEmpty else {
                line.flushers -= 1
                return nil
            }
            let count = min(maxBatch, line.waiting.count)
            let batch = Array(line.waiting.prefix(count))
            line.waiting.removeFirst(count)
            return batch
        }
    }
}
