import Foundation
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

/// `/metrics`, `/health` and `/live` over real HTTP: the histograms and counters a load leaves, and a health
/// check that says 503 while the database cannot be reached.
@Suite struct MetricsEndpointTests {
    @Test func metricsShowLatencyHistogramsPoolWaitAndCountersAfterRequests() async throws {
        let user = try await LaurelTestDatabase.createUser("metrics", timeZone: TestClock.zoneWhereItIsMidday())
        let metricsPort = try await HTTPProbe.freePort()
        let (server, port) = try await ServerProcess.start(metricsPort: metricsPort)
        defer { server.send(SIGKILL) }
        let client = try await LineClient.authenticated(port: port, token: user.token)
        // The day's challenges are chosen first (the real executable offers them): the next LOG is one statement.
        #expect(try await client.request("CHALLENGES").kind == "OK")
        #expect(try await client.request("LOG", ["activity": "pushups", "amount": 3]).kind == "OK")
        #expect(try await client.request("PING").kind == "OK")
        #expect(try await client.request("LOG", ["activity": "no-such-activity"]).kind == "ERR")

        let metrics = try await HTTPProbe.get(port: metricsPort, path: "/metrics")
        #expect(metrics.status == 200)
        let lines = metrics.body.split(separator: "\n").map(String.init)
        func value(_ series: String) -> Double? {
            lines.first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        #expect(value(#"laurel_requests_total{verb="LOG"}"#) == 2, "\(metrics.body)")
        #expect(value(#"laurel_request_duration_seconds_count{verb="LOG"}"#) == 2)
        #expect(value(#"laurel_request_duration_seconds_count{verb="AUTH"}"#) == 1)
        #expect(lines.contains { $0.hasPrefix(#"laurel_request_duration_seconds_bucket{verb="PING",le="0.005"}"#) })
        #expect(lines.contains { $0.hasPrefix(#"laurel_request_duration_seconds_bucket{verb="LOG",le="+Inf"} 2"#) })
        #expect((value("laurel_db_pool_wait_seconds_count") ?? 0) > 0, "the pool reports its waits")
        #expect(value("laurel_db_pool_queue_depth") != nil)
        // Each commit batch's size and statement time: the day's challenges and the LOG, a batch each.
        #expect(value("laurel_commit_batch_writes_count") == 2, "\(metrics.body)")
        #expect(value(#"laurel_commit_batch_writes_bucket{le="1.0"}"#) == 2)
        #expect(value("laurel_commit_batch_seconds_count") == 2)
        #expect(value(#"laurel_errors_total{code="not_found"}"#) == 1)
        #expect(value("laurel_connections_open") == 1)
        #expect(value(#"laurel_writes_total{route="session_version"}"#) == 2, "the day's challenges chosen, and the LOG")
        #expect(value("laurel_unlocks_total") == 1)
        #expect(value("laurel_pushes_delivered_total") ?? 0 >= 1)
        #expect(value("laurel_slow_consumer_disconnects_total") == 0)
        #expect(value("laurel_pushes_dropped_total") == 0)
        #expect(lines.contains { $0.hasPrefix("laurel_stale_commits_total") })
        #expect(lines.contains { $0.hasPrefix(#"laurel_pieces_loaded_total{piece="all_facts"}"#) })

        #expect(try await HTTPProbe.get(port: metricsPort, path: "/health").status == 200)
        #expect(try await HTTPProbe.get(port: metricsPort, path: "/live").status == 200)
        #expect(try await HTTPProbe.get(port: metricsPort, path: "/nothing").status == 404)
    }

    @Test func healthIs503WhileTheDatabaseCannotBeReached() async throws {
        // A pool whose database does not answer: nothing listens on the port.
        let deadPort = try await HTTPProbe.freePort()
        let unreachable = PostgresPool(
            configuration: PostgresConfiguration(connectionString: "postgresql://laurel@127.0.0.1:\(deadPort)/laurel", connectTimeoutSeconds: 1),
            size: 1, logger: Logger(label: "laurel.tests.metrics"))
        let reachable = PostgresPool(configuration: try LaurelTestDatabase.configuration("laurel-tests-health"), size: 1, logger: Logger(label: "laurel.tests.metrics"))
        for (pool, expected) in [(unreachable, 503), (reachable, 200)] {
            let store = PostgresStore(pool: pool)
            let port = try await HTTPProbe.freePort()
            let endpoint = MetricsEndpoint(
                host: "127.0.0.1", port: port, metrics: ServerMetrics(), logger: Logger(label: "laurel.tests.metrics"),
                databaseIsReachable: { await store.isReachable() })
            let group = ServiceGroup(configuration: .init(services: [.init(service: endpoint)], logger: Logger(label: "laurel.tests.metrics")))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let health = try await HTTPProbe.get(port: port, path: "/health", retryingConnect: true)
                #expect(health.status == expected, "\(health.body)")
                #expect(try await HTTPProbe.get(port: port, path: "/live").status == 200, "the process itself is alive")
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            await pool.close()
        }
    }
}

/// Plain HTTP/1.1 GETs over a line client (its decoder splits at LF and drops the CR).
enum HTTPProbe {
    static func get(port: Int, path: String, retryingConnect: Bool = false) async throws -> (status: Int, body: String) {
        var client: LineClient?
        for attempt in 0..<(retryingConnect ? 100 : 1) {
            do {
                client = try await LineClient.connect(port: port)
                break
            } catch where attempt < 99 && retryingConnect {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        guard let client else { throw LineClientError.closed }
        defer { Task { await client.close() } }
        try await client.sendRaw("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let statusLine = try await client.nextLine().raw
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        var length = 0
        while true {
            let header = try await client.nextLine().raw
            if header.isEmpty { break }
            if header.lowercased().hasPrefix("content-length:") {
                length = Int(header.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        var body = ""
        while body.utf8.count < length {
            body += try await client.nextLine().raw + "\n"
        }
        return (status, body)
    }

    /// A port nothing listens on right now.
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }
}
