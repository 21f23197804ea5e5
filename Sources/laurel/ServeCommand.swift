import ArgumentParser
import Foundation
import LaurelCore
import LaurelPostgres
import LaurelServer
import Logging
import ServiceLifecycle
import UnixSignals

/// `laurel serve`: runs the server until SIGTERM or SIGINT, then shuts down gracefully and exits 0.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the Laurel server.")

    @Option(help: "Address to listen on (env LAUREL_HOST; default 127.0.0.1).") var host: String?
    @Option(help: "Port to listen on, 0 for any free port (env LAUREL_PORT; default 7420).") var port: Int?
    @Option(help: "Port of the WebSocket endpoint, 0 to turn it off (env LAUREL_WS_PORT; default 7422).") var wsPort: Int?
    @OptionGroup var database: DatabaseOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "TLS") var tls: TLSOptions
    @Option(help: "Catalog name (standfit, mindful) or path to a catalog file (env LAUREL_CATALOG; default standfit).") var catalog: String?
    @Option(help: "Port of the HTTP /metrics and /health endpoints, 0 to turn them off (env LAUREL_METRICS_PORT; default 7421).") var metricsPort: Int?
    @Option(help: "Most connections at once (env LAUREL_MAX_CONNECTIONS; default 10000).") var maxConnections: Int?
    @Option(help: "Database connections in the pool (env LAUREL_DB_POOL_SIZE; default 16).") var dbPoolSize: Int?
    @Option(help: "Most writes of different users stored in one transaction (group commit) (env LAUREL_COMMIT_BATCH; default 256).")
    var commitBatch: Int?
    @Option(help: "Most group commits in flight at once, each on a pool connection; another than the first starts only when 64 writes wait for each (env LAUREL_COMMIT_FLUSHERS; default 2).")
    var commitFlushers: Int?
    @Option(help: "Time a client has to AUTH (env LAUREL_AUTH_TIMEOUT; default 10s).") var authTimeout: String?
    @Option(help: "Time after which an idle connection is closed (env LAUREL_IDLE_TIMEOUT; default 300s).") var idleTimeout: String?
    @Option(help: "Longest request line in bytes (env LAUREL_MAX_LINE; default 65536).") var maxLine: Int?
    @Option(help: "Bytes a client may leave unread before it is disconnected as a slow consumer (env LAUREL_MAX_OUTBOUND_BUFFER; default 4194304).")
    var maxOutboundBuffer: Int?
    @Option(help: "Time a graceful shutdown may take before the process exits anyway, 0 for no limit (env LAUREL_SHUTDOWN_GRACE; default 10s).")
    var shutdownGrace: String?
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (env LAUREL_LOG_LEVEL; default info).") var logLevel: String?
    @Flag(help: "Every connection starts with a PROXY v1/v2 header from the balancer, whose source address is the client's; a connection without one is closed (env LAUREL_PROXY_PROTOCOL).")
    var proxyProtocol = false
    @Flag(help: "Do not apply pending migrations at start.") var noMigrate = false
    @Flag(inversion: .prefixedNo, help: "Create (or re-issue a token for) the user `demo` and print its token; on by default with the embedded database.")
    var demoUser: Bool?

    func run() async throws {
        MallocArenas.limitUnlessConfigured()
        let logger = try LoggingSetup.bootstrap(level: logLevel)
        var configuration = ServerConfiguration()
        configuration.host = Setting.value(host, env: "LAUREL_HOST") ?? configuration.host
        configuration.port = try Setting.integer(port, env: "LAUREL_PORT", default: configuration.port)
        let webSocketPort = try Setting.integer(wsPort, env: "LAUREL_WS_PORT", default: 7422)
        configuration.webSocketPort = webSocketPort == 0 ? nil : webSocketPort
        configuration.maxConnections = try Setting.integer(maxConnections, env: "LAUREL_MAX_CONNECTIONS", default: configuration.maxConnections)
        configuration.maxLineBytes = try Setting.integer(maxLine, env: "LAUREL_MAX_LINE", default: configuration.maxLineBytes)
        configuration.maxOutboundBytes = max(1, try Setting.integer(
            maxOutboundBuffer, env: "LAUREL_MAX_OUTBOUND_BUFFER", default: configuration.maxOutboundBytes))
        configuration.shutdownGrace = try Setting.duration(shutdownGrace, env: "LAUREL_SHUTDOWN_GRACE", default: configuration.shutdownGrace)
        configuration.authTimeout = try Setting.duration(authTimeout, env: "LAUREL_AUTH_TIMEOUT", default: configuration.authTimeout)
        configuration.idleTimeout = try Setting.duration(idleTimeout, env: "LAUREL_IDLE_TIMEOUT", default: configuration.idleTimeout)
        try limits.apply(to: &configuration)
        configuration.proxyProtocol = try Setting.boolean(proxyProtocol, env: "LAUREL_PROXY_PROTOCOL")
        configuration.tls = try tls.context()
        let poolSize = try Setting.integer(dbPoolSize, env: "LAUREL_DB_POOL_SIZE", default: 16)
        let catalogName = Setting.value(catalog, env: "LAUREL_CATALOG") ?? "standfit"
        let loadedCatalog: Catalog
        do {
            loadedCatalog = try ShippedCatalogs.load(catalogName)
        } catch {
            throw SettingError("catalog \(catalogName): \(error)")
        }

        try await database.withDatabase(logger: logger) { connectionString, embedded in
            var postgres = PostgresConfiguration(connectionString: connectionString, applicationName: "laurel", connectTimeoutSeconds: 5)
            postgres.sessionSettings = configuration.databaseSessionSettings
            let metrics = ServerMetrics()
            let pool = PostgresPool(configuration: postgres, size: max(1, poolSize), logger: logger, metrics: metrics.factory)
            do {
                if !noMigrate { try await SchemaMigrator(pool: pool, logger: logger).migrate(SchemaFiles.shipped()) }
                let store = PostgresStore(
                    pool: pool, maxCommitBatch: max(1, try Setting.integer(commitBatch, env: "LAUREL_COMMIT_BATCH", default: 256)),
                    commitFlushers: max(1, try Setting.integer(commitFlushers, env: "LAUREL_COMMIT_FLUSHERS", default: 2)),
                    metrics: metrics.factory)
                try await store.installCatalog(loadedCatalog)
                try await store.recordLimits(configuration.limits)
                // Before listening: a fresh instance's first requests should not pay for opening connections.
                try await store.warmUp()
                if demoUser ?? (embedded != nil) {
                    let token = try await DemoUser.token(pool: pool)
                    print("demo token: \(token)")
                    print("try: nc \(configuration.host) \(configuration.port)   then   a1 AUTH {\"token\":\"\(token)\"}")
                    if embedded != nil { print("admin: psql \(connectionString)") }
                    fflush(nil)
                }
                let (listener, storeEvents) = PostgresStoreEvents.listen(
                    configuration: postgres, ownBackends: pool.backends, instance: configuration.instanceID, logger: logger)
                listener.start()
                let server = LaurelServer(
                    configuration: configuration, store: store, catalog: loadedCatalog, storeEvents: storeEvents, metrics: metrics,
                    logger: logger)
                var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: server)]
                let metricsPort = try Setting.integer(self.metricsPort, env: "LAUREL_METRICS_PORT", default: 7421)
                if metricsPort != 0 {
                    services.append(.init(service: MetricsEndpoint(
                        host: configuration.host, port: metricsPort, metrics: metrics, logger: logger,
                        databaseIsReachable: { await store.isReachable() })))
                }
                services.append(.init(service: SubscriptionExpiryWatcher(store: store, logger: logger)))
                let group = ServiceGroup(configuration: .init(
                    services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
                let deadline = configuration.shutdownGrace > .zero
                    ? ShutdownDeadline.watch(grace: configuration.shutdownGrace, logger: logger) : nil
                defer { deadline?.cancel() }
                try await group.run()
                await listener.stop()
            } catch {
                await pool.close()
                throw error
            }
            await pool.close()
            logger.info("stopped")
        }
    }
}

/// The user `demo` of the README: created on first start, given a fresh token on every start.
enum DemoUser {
    static func token(pool: PostgresPool) async throws -> String {
        try await pool.transaction { connection in
            let existing = try connection.query("SELECT 1 FROM laurel.users WHERE lower(name) = 'demo'")
            if existing.count == 0 {
                return try connection.query("SELECT token FROM laurel.create_user('demo')").first.flatMap { $0["token"] } ?? ""
            }
            return try connection.query("SELECT laurel.issue_token('demo') AS token").first.flatMap { $0["token"] } ?? ""
        }
    }
}

/// Logs go to standard error, one line each, at the configured level.
enum LoggingSetup {
    static func bootstrap(level: String?) throws -> Logger {
        let text = Setting.value(level, env: "LAUREL_LOG_LEVEL") ?? "info"
        guard let parsed = Logger.Level(rawValue: text.lowercased()) else {
            throw SettingError("unknown log level \"\(text)\"")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = parsed
            return handler
        }
        return Logger(label: "laurel")
    }
}
