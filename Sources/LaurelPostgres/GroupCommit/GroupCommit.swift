import CoreMetrics
import Metrics
import Synchronization

/// Gathers the writes of many callers that arrive together and stores them as one batch, in one statement and one
/// transaction on one pooled connection, so they share a round trip and a WAL flush (group commit). When batches
/// leave and how many run at once is ``GroupCommitLine``'s decision; this runs what it decides: flushers on pool
/// connections, and each caller resumed with its write's outcome.
///
/// `flush` turns a batch into one outcome per write, in order; when it throws (the database is unreachable, or the
/// statement as a whole failed), every write of that batch gets the error.
final class GroupCommit<Write: Sendable, Outcome: Sendable>: Sendable {
    typealias Flush = @Sendable ([Write], PostgresConnection) throws -> [Outcome]

    private struct Waiting: Sendable {
        let write: Write
        /// Unchecked: every write passes here, and a checked continuation is a box of its own and a look-up of its
        /// type each time. ``GroupCommitLine`` hands each waiting write to exactly one batch or one failure, and
        /// each of those resumes every write it holds once (its tests check both).
        let continuation: UnsafeContinuation<Outcome, any Error>
    }

    private let line: Mutex<GroupCommitLine<Waiting>>
    private let pool: PostgresPool
    private let flush: Flush
    /// How many writes each batch held (`laurel_commit_batch_writes`) and how long its statement took
    /// (`laurel_commit_batch_seconds`): with one flusher a batch holds what arrived while the last one ran, so the
    /// two together show where a commit's latency comes from.
    private let batchWrites: Recorder
    private let batchDuration: CoreMetrics.Timer

    /// - Parameters:
    ///   - pool: where batches run.
    ///   - maxBatch: the most writes in one batch.
    ///   - maxFlushers: the most batches in flight at once (each holds one pool connection).
    ///   - backlogPerFlusher: how many writes must wait for each running flusher before another one starts.
    ///   - metrics: where the batches' sizes and statement times go; nil for the process's metrics system.
    ///   - flush: stores one batch; runs on a database thread.
    init(
        pool: PostgresPool, maxBatch: Int = 256, maxFlushers: Int = 2, backlogPerFlusher: Int = 64, metrics: (any MetricsFactory)? = nil,
        flush: @escaping Flush
    ) {
        self.pool = pool
        self.line = Mutex(GroupCommitLine(maxBatch: maxBatch, maxFlushers: maxFlushers, backlogPerFlusher: backlogPerFlusher))
        self.flush = flush
        let factory = metrics ?? MetricsSystem.factory
        batchWrites = Recorder(label: "laurel_commit_batch_writes", factory: factory)
        batchDuration = CoreMetrics.Timer(label: "laurel_commit_batch_seconds", factory: factory)
    }

    /// Stores `write` with the next batch; returns its outcome once the batch has committed.
    func submit(_ write: Write) async throws -> Outcome {
        try await withUnsafeThrowingContinuation { continuation in
            let action = line.withLock { $0.submit(Waiting(write: write, continuation: continuation)) }
            if action == .startFlusher { startFlusher() }
        }
    }

    private func startFlusher() {
        pool.start { connection in
            self.drain(on: connection)
        } failed: { error in
            for waiting in self.line.withLock({ $0.flusherFailed() }) { waiting.continuation.resume(throwing: error) }
        }
    }

    /// Stores batches on `connection` until nothing is waiting.
    private func drain(on connection: PostgresConnection) {
        while let batch = line.withLock({ $0.nextBatch() }) {
            do {
                batchWrites.record(batch.count)
                let started = ContinuousClock.now
                defer { batchDuration.record(duration: .now - started) }
                let outcomes = try flush(batch.map(\.write), connection)
                guard outcomes.count == batch.count else {
                    throw PostgresError.decoding("a batch of \(batch.count) writes got \(outcomes.count) outcomes")
                }
                for index in batch.indices { batch[index].continuation.resume(returning: outcomes[index]) }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }
}
