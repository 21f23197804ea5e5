import CoreMetrics
import Foundation
import Logging
import Metrics

/// A fixed number of PostgreSQL connections, each owned by a database thread of its own.
///
/// Work is a synchronous closure that runs entirely on a database thread, where it may block on
/// libpq; callers suspend meanwhile without blocking their own thread, and are resumed from the
/// database thread when the closure finishes (or, with `start`, queue the work and wait in a way of
/// their own). While every connection is busy, callers wait in
/// first-in, first-out order. Connections open on first use; one found broken is dropped and the
/// next use opens a new one, and while opening fails, further attempts fail fast with
/// `PostgresError.connection` for a backoff wait (100 ms doubling to 5 s).
public final class PostgresPool: Sendable {
    /// The number of connections (and database threads).
    public let size: Int
    /// The backends serving the pool's connections now.
    public let backends = PostgresBackendRoster()
    private let queue: PoolJobQueue
    /// How long work waited for a connection (`laurel_db_pool_wait_seconds`).
    private let wait: CoreMetrics.Timer

    /// Starts the pool's threads; connections open when work first needs them.
    /// - Parameters:
    ///   - configuration: where to connect.
    ///   - size: the number of connections, at least 1.
    ///   - logger: receives connection failures and PostgreSQL notices.
    /// - Parameter firstReconnectDelay: how long callers fail fast after the database could not be reached,
    ///   doubling with each further failure (up to 5 s).
    /// - Parameter metrics: where the pool reports how long work waits for a connection and how much waits
    ///   (`laurel_db_pool_wait_seconds`, `laurel_db_pool_queue_depth`); nil for the process's metrics system.
    public init(
        configuration: PostgresConfiguration, size: Int, logger: Logger, firstReconnectDelay: Duration = .milliseconds(100),
        metrics: (any MetricsFactory)? = nil
    ) {
        precondition(size > 0, "a PostgresPool needs at least one connection")
        let factory = metrics ?? MetricsSystem.factory
        self.size = size
        self.wait = CoreMetrics.Timer(label: "laurel_db_pool_wait_seconds", factory: factory)
        self.queue = PoolJobQueue(workers: size, depth: CoreMetrics.Gauge(label: "laurel_db_pool_queue_depth", factory: factory))
        let backoff = SharedReconnectBackoff(ReconnectBackoff(firstDelay: firstReconnectDelay))
        for index in 0..<size {
            var workerLogger = logger
            workerLogger[metadataKey: "postgres.pool.thread"] = "\(index)"
            let worker = PoolWorker(
                name: "laurel-db-\(index)", configuration: configuration, queue: queue, backoff: backoff, backends: backends, logger: workerLogger)
            Thread { worker.run() }.start()
        }
    }

    deinit {
        for job in queue.close() {
            job.fail(PostgresError.poolClosed)
        }
    }

    /// Runs `body` on a database thread with a connection reserved for it alone.
    ///
    /// `body` should do one unit of work and return; a transaction it leaves open is rolled back.
    /// Throws what `body` throws, `PostgresError.connection` when no connection can be opened,
    /// `PostgresError.poolClosed` after `close()`, or `CancellationError` when the task is
    /// cancelled while still waiting for a connection.
    @discardableResult
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let queue = self.queue
        let id = queue.makeJobID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                guard !Task.isCancelled else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let queued = enqueue(
                    id: id, run: { connection in continuation.resume(with: Result { try body(connection) }) },
                    fail: { error in continuation.resume(throwing: error) })
                if !queued { continuation.resume(throwing: PostgresError.poolClosed) }
            }
        } onCancel: {
            queue.removeQueued(id: id)?.fail(CancellationError())
        }
    }

    /// Queues `body` to run on a database thread with a connection reserved for it alone, and returns at once;
    /// `failed` is called instead when no connection can be opened or the pool is closed. For work whose callers
    /// wait in their own way (a group commit resumes each of its writers): nobody suspends for the job itself, so
    /// starting it costs no task and no resumption.
    func start(_ body: @escaping @Sendable (PostgresConnection) -> Void, failed: @escaping @Sendable (any Error) -> Void) {
        if !enqueue(id: queue.makeJobID(), run: body, fail: failed) { failed(PostgresError.poolClosed) }
    }

    /// Queues a job whose wait for a connection is measured (`laurel_db_pool_wait_seconds`); false when the pool is
    /// closed.
    private func enqueue(
        id: UInt64, run: @escaping @Sendable (PostgresConnection) -> Void, fail: @escaping @Sendable (any Error) -> Void
    ) -> Bool {
        let (wait, enqueued) = (self.wait, ContinuousClock.now)
        return queue.enqueue(PoolJob(
            id: id,
            run: { connection in
                wait.record(duration: ContinuousClock.now - enqueued)
                run(connection)
            },
            fail: fail))
    }

    /// Runs `body` once on each of the pool's connections, opening every one: each run holds its database thread until
    /// all have started, so that no thread runs two. For a server that should not pay a connection's first-use costs
    /// (connecting, preparing and planning its statements) in the latency of its first requests.
    public func onEachConnection(_ body: @escaping @Sendable (PostgresConnection) throws -> Void) async throws {
        // Every run leaves the group as it starts and waits for the rest (10 s at most, should a connection not open).
        let started = DispatchGroup()
        for _ in 0..<size { started.enter() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<size {
                group.addTask {
                    try await self.withConnection { connection in
                        started.leave()
                        _ = started.wait(timeout: .now() + 10)
                        try body(connection)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Runs `body` in a transaction on a database thread; see `PostgresConnection.transaction`.
    @discardableResult
    public func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await withConnection { connection in
            try connection.transaction(body)
        }
    }

    /// Fails waiting callers with `PostgresError.poolClosed`, waits for running work to finish,
    /// then closes the connections and stops the threads. Later calls throw `poolClosed`.
    public func close() async {
        for job in queue.close() {
            job.fail(PostgresError.poolClosed)
        }
        await queue.waitUntilWorkersStopped()
    }

    /// Work waiting for a connection.
    var queuedCount: Int {
        queue.queuedCount
    }
}
