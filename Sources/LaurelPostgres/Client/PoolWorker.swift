import Logging

/// The loop one database thread of a `PostgresPool` runs: take the next job, make sure this
/// thread's connection is healthy (opening it on first use or after a loss), run the job, and
/// bring the connection back to idle. The connection never leaves this thread.
struct PoolWorker: Sendable {
    /// The thread's name: `laurel-db-N`.
    let name: String
    let configuration: PostgresConfiguration
    let queue: PoolJobQueue
    let backoff: SharedReconnectBackoff
    let backends: PostgresBackendRoster
    let logger: Logger

    func run() {
        LibPQThreadAudit.markCurrentThreadAsDatabaseThread(named: name)
        // The pool's roster follows this thread's connection, whichever way it is replaced or let go.
        var connection: PostgresConnection? {
            didSet {
                guard oldValue !== connection else { return }
                if let oldValue { backends.closed(oldValue.backendPID) }
                if let connection { backends.opened(connection.backendPID) }
            }
        }
        while let job = queue.next() {
            if let idle = connection, !idle.isUsableAfterIdle() {
                idle.logger.info("Replacing a PostgreSQL connection that was lost while idle")
                connection = nil
            }
            let current: PostgresConnection
            if let connection {
                current = connection
            } else {
                do {
                    current = try open()
                } catch {
                    job.fail(error)
                    continue
                }
                connection = current
            }
            job.run(current)
            if !current.resetAfterUse() {
                current.logger.info(
                    "Discarding a PostgreSQL connection",
                    metadata: ["postgres.error": "\(current.lastErrorMessage ?? "not idle after use")"]
                )
                connection = nil
            }
        }
        connection = nil  // closes it here, on its own thread
        queue.workerStopped()
    }

    /// Opens a connection unless a recent attempt failed and the backoff wait is still running,
    /// in which case it fails at once.
    private func open() throws(PostgresError) -> PostgresConnection {
        let now = ContinuousClock.now
        if let refusal = backoff.refusal(at: now) {
            throw .connection("not reconnecting yet (backoff) after: \(refusal)")
        }
        do {
            let connection = try PostgresConnection.connect(configuration: configuration, logger: logger)
            backoff.recordSuccess()
            return connection
        } catch {
            let message = error.connectionMessage
            let delay = backoff.recordFailure(message, at: .now)
            logger.warning(
                "Could not connect to PostgreSQL",
                metadata: ["postgres.error": "\(message)", "postgres.retry_after": "\(delay ?? .zero)"]
            )
            throw error
        }
    }
}
