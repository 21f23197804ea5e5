import NIOConcurrencyHelpers
import Foundation
import Logging
import Testing
@testable import LaurelPostgres

/// The PostgreSQL cluster the client tests run against, from `scripts/with-test-postgres`.
enum ClientTestDatabase {
    static let logger = Logger(label: "laurel.tests.postgres-client")

    /// libpq calls the audit test makes on purpose outside database threads; no other test may
    /// add to `LibPQThreadAudit.violations`.
    static let deliberateAuditViolations = NIOLockedValueBox(0)

    /// The test database's configuration; records a failure when the tests were started without
    /// a database.
    static func configuration(applicationName: String = "laurel-client-tests") throws -> PostgresConfiguration {
        let url = try #require(
            ProcessInfo.processInfo.environment["LAUREL_TEST_DATABASE_URL"],
            "LAUREL_TEST_DATABASE_URL is not set: run the integration tests through scripts/with-test-postgres, e.g. `scripts/with-test-postgres swift test`"
        )
        return PostgresConfiguration(connectionString: url, applicationName: applicationName, connectTimeoutSeconds: 5)
    }

    /// A table, channel or application name no other test uses.
    static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Runs `body` with a fresh pool and closes the pool afterwards, checking that the work made
    /// no libpq call outside database threads.
    static func withPool<T: Sendable>(
        size: Int = 2,
        applicationName: String = "laurel-client-tests",
        _ body: (PostgresPool) async throws -> T
    ) async throws -> T {
        let pool = PostgresPool(configuration: try configuration(applicationName: applicationName), size: size, logger: logger)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(pool))
        } catch {
            result = .failure(error)
        }
        await pool.close()
        #expect(LibPQThreadAudit.violations <= deliberateAuditViolations.withLockedValue { $0 })
        return try result.get()
    }

    /// Polls `condition` until it holds or `timeout` passes; returns whether it held.
    static func eventually(
        timeout: Duration = .seconds(10),
        _ condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }

    /// Terminates the backend with `pid` from another connection and waits until it is gone.
    static func terminateBackend(_ pid: Int, using admin: PostgresPool) async throws {
        _ = try await admin.withConnection { connection in
            try connection.query("SELECT pg_terminate_backend($1::int)", [.int(pid)])
        }
        let gone = try await eventually {
            try await admin.withConnection { connection in
                try connection.query("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = $1::int", [.int(pid)])[0].int("n") == 0
            }
        }
        #expect(gone, "backend \(pid) is still running")
    }

    static func notify(_ channel: String, _ payload: String, pool: PostgresPool) async throws {
        _ = try await pool.withConnection { connection in
            try connection.query("SELECT pg_notify($1::text, $2::text)", [.text(channel), .text(payload)])
        }
    }

    /// LISTEN takes effect some time after `start()`; notifies until one arrives.
    static func waitUntilListening(on channel: String, received: NotificationCollector, pool: PostgresPool) async throws {
        let listening = try await eventually {
            try await Self.notify(channel, "ready", pool: pool)
            try await Task.sleep(for: .milliseconds(50))
            return received.payloads(on: channel).contains("ready")
        }
        try #require(listening, "the listener never received a notification")
    }
}
