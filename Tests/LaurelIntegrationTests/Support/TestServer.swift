import Foundation
import LaurelCore
import LaurelPostgres
import LaurelServer
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

/// A real Laurel server in the test process, on a free port, against the test database. `run` starts it, hands
/// its port to the body, and shuts it down gracefully afterwards.
enum TestServer {
    static func run<T: Sendable>(
        configuration: ServerConfiguration = ServerConfiguration(port: 0),
        catalog: String = "standfit",
        _ body: @Sendable (_ port: Int) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        configuration.port = 0
        let logger = Logger(label: "laurel.tests.server")
        let postgres = try LaurelTestDatabase.configuration("laurel-tests-server")
        _ = try await LaurelTestDatabase.admin()  // migrated
        let pool = PostgresPool(configuration: postgres, size: 4, logger: logger)
        let store = PostgresStore(pool: pool)
        let loaded = try ShippedCatalogs.load(catalog)
        try await store.installCatalog(loaded)
        let listener = PostgresNotificationListener(configuration: postgres, channels: [PostgresStoreEvents.channel], logger: logger)
        listener.start()
        let port = AsyncStream<Int>.makeStream()
        let server = LaurelServer(
            configuration: configuration, store: store, catalog: loaded,
            storeEvents: PostgresStoreEvents.stream(from: listener, logger: logger), logger: logger,
            onListening: { address in port.continuation.yield(address.port ?? 0) })
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
                outcome = .success(try await body(bound))
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
}

enum TestServerError: Error {
    case didNotStart
}
