import NIOConcurrencyHelpers
import Dispatch
import Testing
@testable import LaurelPostgres

@Suite("PostgresPool")
struct PostgresPoolTests {
    @Test("more concurrent tasks than connections all complete, never over the pool size")
    func moreTasksThanConnections() async throws {
        let inUse = NIOLockedValueBox((current: 0, peak: 0))
        let pids = try await ClientTestDatabase.withPool(size: 3) { pool in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        try await pool.withConnection { connection in
                            inUse.withLockedValue { state in
                                state.current += 1
                                state.peak = max(state.peak, state.current)
                            }
                            defer { inUse.withLockedValue { $0.current -= 1 } }
                            return try connection.query("SELECT pg_backend_pid() AS pid, pg_sleep(0.01)")[0].int("pid")
                        }
                    }
                }
                var pids: [Int] = []
                for try await pid in group {
                    pids.append(pid)
                }
                return pids
            }
        }
        #expect(pids.count == 40)
        #expect(Set(pids).count <= 3)
        #expect(inUse.withLockedValue { $0.peak } <= 3)
    }

    @Test("waiters are served first in, first out")
    func waitersAreFIFO() async throws {
        let gate = DispatchSemaphore(value: 0)
        let blockerRunning = NIOLockedValueBox(false)
        let order = NIOLockedValueBox<[Int]>([])
        try await ClientTestDatabase.withPool(size: 1) { pool in
            let blocker = Task {
                try await pool.withConnection { _ in
                    blockerRunning.withLockedValue { $0 = true }
                    gate.wait()
                }
            }
            #expect(try await ClientTestDatabase.eventually { blockerRunning.withLockedValue { $0 } })
            var waiters: [Task<Void, any Error>] = []
            for index in 0..<10 {
                waiters.append(Task {
                    try await pool.withConnection { _ in order.withLockedValue { $0.append(index) } }
                })
                #expect(try await ClientTestDatabase.eventually { pool.queuedCount == index + 1 })
            }
            gate.signal()
            try await blocker.value
            for waiter in waiters {
                try await waiter.value
            }
        }
        #expect(order.withLockedValue { $0 } == Array(0..<10))
    }

    @Test("a waiter cancelled before it gets a connection leaves the queue")
    func cancelledWaiter() async throws {
        let gate = DispatchSemaphore(value: 0)
        let blockerRunning = NIOLockedValueBox(false)
        try await ClientTestDatabase.withPool(size: 1) { pool in
            let blocker = Task {
                try await pool.withConnection { _ in
                    blockerRunning.withLockedValue { $0 = true }
                    gate.wait()
                }
            }
            #expect(try await ClientTestDatabase.eventually { blockerRunning.withLockedValue { $0 } })
            let waiter = Task { try await pool.withConnection { _ in 1 } }
            #expect(try await ClientTestDatabase.eventually { pool.queuedCount == 1 })
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
            #expect(pool.queuedCount == 0)
            gate.signal()
            try await blocker.value
        }
    }

    @Test("closing fails queued waiters with poolClosed, lets running work finish, and refuses new work")
    func closeFailsWaiters() async throws {
        let gate = DispatchSemaphore(value: 0)
        let blockerRunning = NIOLockedValueBox(false)
        let pool = PostgresPool(configuration: try ClientTestDatabase.configuration(), size: 1, logger: ClientTestDatabase.logger)
        let blocker = Task {
            try await pool.withConnection { connection in
                blockerRunning.withLockedValue { $0 = true }
                gate.wait()
                return try connection.query("SELECT 42 AS answer")[0].int("answer")
            }
        }
        #expect(try await ClientTestDatabase.eventually { blockerRunning.withLockedValue { $0 } })
        let waiters = (0..<3).map { _ in Task { try await pool.withConnection { _ in 1 } } }
        #expect(try await ClientTestDatabase.eventually { pool.queuedCount == 3 })

        let closing = Task { await pool.close() }
        for waiter in waiters {
            await #expect(throws: PostgresError.poolClosed) { try await waiter.value }
        }
        gate.signal()
        #expect(try await blocker.value == 42)
        await closing.value
        await #expect(throws: PostgresError.poolClosed) {
            try await pool.withConnection { _ in 1 }
        }
        await pool.close()
    }

    @Test("work started without waiting runs on a connection of its own; once the pool is closed it fails with poolClosed")
    func startedWork() async throws {
        let pool = PostgresPool(configuration: try ClientTestDatabase.configuration(), size: 1, logger: ClientTestDatabase.logger)
        let answer = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            pool.start { connection in
                continuation.resume(with: Result { try connection.query("SELECT 42 AS answer")[0].int("answer") })
            } failed: { error in
                continuation.resume(throwing: error)
            }
        }
        #expect(answer == 42)
        await pool.close()
        await #expect(throws: PostgresError.poolClosed) {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                pool.start { _ in
                    continuation.resume()
                } failed: { error in
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    @Test("work run on each connection runs once on every connection of the pool, each its own backend")
    func onEachConnection() async throws {
        try await ClientTestDatabase.withPool(size: 4) { pool in
            let backends = NIOLockedValueBox<[Int]>([])
            try await pool.onEachConnection { connection in
                let pid = try connection.query("SELECT pg_backend_pid() AS pid")[0].int("pid")
                backends.withLockedValue { $0.append(pid) }
            }
            let seen = backends.withLockedValue { $0 }
            #expect(seen.count == 4)
            #expect(Set(seen).count == 4, "no connection ran it twice")
        }
    }

    @Test("a backend terminated while idle is replaced before the next use")
    func idleBackendTerminated() async throws {
        try await ClientTestDatabase.withPool(size: 1) { admin in
            try await ClientTestDatabase.withPool(size: 1) { pool in
                let firstPID = try await pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid")[0].int("pid") }
                try await ClientTestDatabase.terminateBackend(firstPID, using: admin)
                let secondPID = try await pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid")[0].int("pid") }
                #expect(secondPID != firstPID)
            }
        }
    }

    @Test("a backend terminated during a statement fails it as a connection error; the next use reconnects")
    func backendTerminatedDuringStatement() async throws {
        let applicationName = ClientTestDatabase.uniqueName("client_kill")
        try await ClientTestDatabase.withPool(size: 1) { admin in
            try await ClientTestDatabase.withPool(size: 1, applicationName: applicationName) { pool in
                let sleeper = Task {
                    try await pool.withConnection { connection in
                        _ = try connection.query("SELECT pg_sleep(30)")
                    }
                }
                let pid = try await waitForActiveBackend(applicationName: applicationName, admin: admin)
                try await ClientTestDatabase.terminateBackend(pid, using: admin)
                let error = await #expect(throws: PostgresError.self) { try await sleeper.value }
                #expect(error?.isConnectionError == true)
                if case .connection = error {} else {
                    Issue.record("expected PostgresError.connection, got \(String(describing: error))")
                }
                let newPID = try await pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid")[0].int("pid") }
                #expect(newPID != pid)
            }
        }
    }

    @Test("a connection lost before COMMIT surfaces as a connection error and nothing is committed")
    func connectionLostBeforeCommit() async throws {
        let table = ClientTestDatabase.uniqueName("client_commit")
        let gate = DispatchSemaphore(value: 0)
        let backendPID = NIOLockedValueBox<Int?>(nil)
        try await ClientTestDatabase.withPool(size: 1) { admin in
            try await admin.withConnection { try $0.simpleQuery("CREATE TABLE \(table) (id bigint)") }
            try await ClientTestDatabase.withPool(size: 1) { pool in
                let transaction = Task {
                    try await pool.transaction { connection in
                        try connection.execute("INSERT INTO \(table) VALUES (1)")
                        let pid = try connection.query("SELECT pg_backend_pid() AS pid")[0].int("pid")
                        backendPID.withLockedValue { $0 = pid }
                        gate.wait()
                    }
                }
                #expect(try await ClientTestDatabase.eventually { backendPID.withLockedValue { $0 } != nil })
                let pid = try #require(backendPID.withLockedValue { $0 })
                try await ClientTestDatabase.terminateBackend(pid, using: admin)
                gate.signal()
                let error = await #expect(throws: PostgresError.self) { try await transaction.value }
                if case .connection = error {} else {
                    Issue.record("expected PostgresError.connection, got \(String(describing: error))")
                }
                #expect(try await pool.withConnection { try $0.query("SELECT 1 AS one")[0].int("one") } == 1)
            }
            let count = try await admin.withConnection { try $0.query("SELECT count(*) AS n FROM \(table)")[0].int("n") }
            #expect(count == 0)
            try await admin.withConnection { try $0.simpleQuery("DROP TABLE \(table)") }
        }
    }

    @Test("while the server cannot be reached, connection attempts fail fast during the backoff wait")
    func backoffWhileUnreachable() async throws {
        // Port 1 on the loopback interface refuses connections at once. The wait is long so that no scheduling
        // delay can end it during the test; that it ends is shown by the ReconnectBackoff unit tests.
        let configuration = PostgresConfiguration(connectionString: "postgresql://postgres@127.0.0.1:1/none", connectTimeoutSeconds: 2)
        let pool = PostgresPool(configuration: configuration, size: 2, logger: ClientTestDatabase.logger, firstReconnectDelay: .seconds(60))
        let first = await #expect(throws: PostgresError.self) { try await pool.withConnection { _ in 1 } }
        #expect(first?.isConnectionError == true)
        if case .connection(let message) = first {
            #expect(!message.contains("backoff"), "the first attempt really connects")
        }

        let second = await #expect(throws: PostgresError.self) { try await pool.withConnection { _ in 1 } }
        if case .connection(let message) = second {
            #expect(message.contains("backoff"))
        } else {
            Issue.record("expected PostgresError.connection, got \(String(describing: second))")
        }
        await pool.close()
    }

    private func waitForActiveBackend(applicationName: String, admin: PostgresPool) async throws -> Int {
        let pid = NIOLockedValueBox<Int?>(nil)
        let found = try await ClientTestDatabase.eventually {
            let active = try await admin.withConnection { connection in
                try connection.query(
                    "SELECT pid FROM pg_stat_activity WHERE application_name = $1::text AND state = 'active' AND query LIKE '%pg_sleep%'",
                    [.text(applicationName)]
                ).first.map { try $0.int("pid") }
            }
            pid.withLockedValue { $0 = active }
            return active != nil
        }
        #expect(found, "the statement never became active")
        return try #require(pid.withLockedValue { $0 })
    }
}

@Suite("ReconnectBackoff")
struct ReconnectBackoffTests {
    @Test("waits 100 ms after a failure, doubles up to 5 s, and resets after a success")
    func doublingAndReset() throws {
        var backoff = ReconnectBackoff()
        var now = ContinuousClock.now
        #expect(backoff.permitsAttempt(at: now))
        var delays: [Duration] = []
        for _ in 0..<9 {
            backoff.recordFailure("refused", at: now)
            delays.append(try #require(backoff.delay))
            #expect(!backoff.permitsAttempt(at: now))
            now = now + backoff.delay!
            #expect(backoff.permitsAttempt(at: now))
        }
        #expect(delays == [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000].map { .milliseconds($0) })
        backoff.recordSuccess()
        #expect(backoff.permitsAttempt(at: now))
        backoff.recordFailure("refused", at: now)
        #expect(backoff.delay == .milliseconds(100))
    }

    @Test("failures during a running wait do not lengthen it")
    func concurrentFailures() {
        var backoff = ReconnectBackoff()
        let now = ContinuousClock.now
        backoff.recordFailure("first", at: now)
        backoff.recordFailure("second", at: now + .milliseconds(10))
        #expect(backoff.delay == .milliseconds(100))
        #expect(backoff.lastFailure == "second")
    }
}
