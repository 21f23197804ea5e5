import Foundation
import LaurelCore
import LaurelPostgres
import LaurelServer
import LaurelStore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

/// A real Laurel server in the test process, on a free port, against the test database. `run` starts it, hands
/// its port to the body, and shuts it down gracefully afterwards; `withServer` hands over a `RunningTestServer`
/// instead, for tests that shut the server down themselves.
///
/// The catalog's challenge pool is left out unless a test asks for `challenges`: challenges pay XP, and which ones a
/// user gets depends on the user's id and the local hour, so a test that counts XP exactly would depend on both.
enum TestServer {
    static func run<T: Sendable>(
        configuration: ServerConfiguration = ServerConfiguration(port: 0),
        catalog: String = "standfit",
        challenges: Bool = false,
        _ body: @Sendable (_ port: Int) async throws -> T
    ) async throws -> T {
        try await withServer(configuration: configuration, catalog: catalog, challenges: challenges) { server in
            try await body(server.port)
        }
    }

    /// Starts a server, waits until it listens on its port and follows the store's events (so an operator's
    /// `laurel.revoke_tokens` reaches it), runs `body`, then shuts the server down and waits for it to finish.
    static func withServer<T: Sendable>(
        configuration: ServerConfiguration = ServerConfiguration(port: 0),
        catalog: String = "standfit",
        challenges: Bool = false,
        hearsStateVersions: Bool = true,
        _ body: @Sendable (_ server: RunningTestServer) async throws -> T
    ) async throws -> T {
        // A test that runs a second instance inside the first uses its own slot for both: waiting for a second
        // slot while holding one would deadlock as soon as enough such tests ran at once.
        if ServerSlots.heldByThisTest {
            return try await startAndRun(
                configuration: configuration, catalog: catalog, challenges: challenges, hearsStateVersions: hearsStateVersions, body)
        }
        await ServerSlots.shared.acquire()
        do {
            let result = try await ServerSlots.$heldByThisTest.withValue(true) {
                try await startAndRun(
                configuration: configuration, catalog: catalog, challenges: challenges, hearsStateVersions: hearsStateVersions, body)
            }
            await ServerSlots.shared.release()
            return result
        } catch {
            await ServerSlots.shared.release()
            throw error
        }
    }

    private static func startAndRun<T: Sendable>(
        configuration: ServerConfiguration, catalog: String, challenges: Bool, hearsStateVersions: Bool,
        _ body: @Sendable (_ server: RunningTestServer) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        configuration.port = 0
        // Every test connects from 127.0.0.1: under the standard limit on failed AUTHs per address, one test's
        // failures would refuse another's AUTHs. A test about that limit sets one of its own.
        if configuration.failedAuthLimit == FailedAuthLimit() { configuration.failedAuthLimit = nil }
        // A WebSocket endpoint asked for takes any free port too.
        if configuration.webSocketPort != nil { configuration.webSocketPort = 0 }
        let logger = Logger(label: "laurel.tests.server")
        var postgres = try LaurelTestDatabase.configuration("laurel-tests-server")
        postgres.sessionSettings = configuration.databaseSessionSettings
        _ = try await LaurelTestDatabase.admin()  // migrated
        let metrics = ServerMetrics()
        let pool = PostgresPool(configuration: postgres, size: 4, logger: logger, metrics: metrics.factory)
        let store = PostgresStore(pool: pool, metrics: metrics.factory)
        var loaded = try ShippedCatalogs.load(catalog)
        if !challenges { loaded = loaded.replacingChallengePool(with: []) }
        try await store.installCatalog(loaded)
        // A name of its own, so the test can see in pg_stat_activity when this listener has run LISTEN.
        let listenerName = "laurel-tests-listener-\(UUID().uuidString.prefix(8).lowercased())"
        let (listener, events) = PostgresStoreEvents.listen(
            configuration: try LaurelTestDatabase.configuration(listenerName), ownBackends: pool.backends, instance: configuration.instanceID,
            logger: logger)
        listener.start()
        let port = AsyncStream<Int>.makeStream()
        let webSocketPort = Mutex<Int?>(nil)
        let server = LaurelServer(
            configuration: configuration, store: store, catalog: loaded,
            storeEvents: hearsStateVersions ? events : withoutStateVersions(events), metrics: metrics, logger: logger,
            onListening: { address in port.continuation.yield(address.port ?? 0) },
            onWebSocketListening: { address in webSocketPort.withLock { $0 = address.port } })
        let watcher = SubscriptionExpiryWatcher(store: store, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [.init(service: server), .init(service: watcher)], logger: logger))
        defer { port.continuation.finish() }
        let result = try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var iterator = port.stream.makeAsyncIterator()
            guard let bound = await iterator.next() else { throw TestServerError.didNotStart }
            let outcome: Result<T, any Error>
            do {
                try await waitUntilListening(instance: configuration.instanceID)
                // The WebSocket endpoint is bound before the server starts accepting on its port.
                let server = RunningTestServer(
                    port: bound, webSocketPort: webSocketPort.withLock { $0 }, group: group, metrics: metrics, listenerName: listenerName)
                outcome = .success(try await body(server))
            } catch {
                outcome = .failure(error)
            }
            await group.triggerGracefulShutdown()
            while let next = try await tasks.next() { _ = next }
            return try outcome.get()
        }
        await listener.stop()
        await pool.close()
        return result
    }

    /// The store's events, without the versions commits announce when a test wants a server that does not hear of
    /// other instances' writes (its sessions then find out only when a commit comes back stale); their pushes still
    /// arrive.
    private static func withoutStateVersions(_ events: AsyncStream<[StoreEvent]>) -> AsyncStream<[StoreEvent]> {
        AsyncStream { continuation in
            let task = Task {
                for await batch in events {
                    continuation.yield(batch.map { event in
                        guard case .committed(let user, _, let lastSeq, _, _) = event else { return event }
                        return .committed(user, version: .min, lastSeq: lastSeq)
                    })
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The listener connects and runs LISTEN on a thread of its own; notifications sent before that are lost. It
    /// registers its instance after its LISTEN: once the instance is registered, nothing is missed.
    private static func waitUntilListening(instance: String) async throws {
        let listening = try await Eventually.holds(timeout: .seconds(20)) {
            try await LaurelTestDatabase.count("SELECT count(*) FROM laurel.instances WHERE id = $1::text", [.text(instance)]) > 0
        }
        if !listening { throw TestServerError.notFollowingStoreEvents }
    }
}

/// A server started by `TestServer.withServer`: where it listens, and a way to begin its graceful shutdown
/// while the test still talks to it.
struct RunningTestServer: Sendable {
    let port: Int
    /// The WebSocket endpoint's port, when the configuration asked for one.
    let webSocketPort: Int?
    fileprivate let group: ServiceGroup
    let metrics: ServerMetrics
    /// The application name of the server's LISTEN connection.
    let listenerName: String

    /// A counter or gauge of the server's `/metrics` text, by its full name with labels (0 when absent).
    func counter(_ name: String) -> Int {
        let line = metrics.exposition().split(separator: "\n").first { $0.hasPrefix(name + " ") }
        // Gauges print as decimals ("1.0").
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
    }

    /// How many requests with a verb the server has answered, over all connections (lines that did not parse are
    /// not counted).
    var requestsAnswered: Int {
        metrics.exposition().split(separator: "\n")
            .filter { $0.hasPrefix("laurel_request_duration_seconds_count{") }
            .compactMap { Double($0.split(separator: " ").last ?? "").map { Int($0) } }
            .reduce(0, +)
    }

    /// Ends the server's LISTEN connection from the database side, as a failover or a network cut would; the server
    /// reconnects by itself.
    func dropListenerConnection() async throws {
        let pid = try await LaurelTestDatabase.count(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1::text", [.text(listenerName)])
        try await LaurelTestDatabase.scalar("SELECT pg_terminate_backend($1::int)", [.text(String(pid))])
    }

    /// Starts the graceful shutdown (as SIGTERM would) and returns at once; the server finishes on its own.
    func beginShutdown() async {
        await group.triggerGracefulShutdown()
    }
}

/// How many tests may run servers at once. Each server holds five PostgreSQL connections (its pool and its
/// listener), a test runs at most two, and the test cluster allows 200 connections.
actor ServerSlots {
    static let shared = ServerSlots(count: 6)

    /// Whether the current test already holds a slot (its servers share it).
    @TaskLocal static var heldByThisTest = false

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        free = count
    }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

enum TestServerError: Error {
    case didNotStart
    case notFollowingStoreEvents
}
