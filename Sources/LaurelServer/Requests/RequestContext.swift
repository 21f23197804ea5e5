import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore
import Logging

/// What every request handler may use: the configuration, the store, the catalog and the connected sessions.
final class ServerResources: Sendable {
    let configuration: ServerConfiguration
    let store: any LaurelStore
    let catalog: Catalog
    let registry: SessionRegistry
    let engine: ProgressEngine
    let metrics: ServerMetrics
    let logger: Logger
    /// Lets 32 connections answer their first requests at once (twice the default database pool: more would
    /// only wait for it).
    let authentications = AuthenticationGate(limit: 32)

    init(configuration: ServerConfiguration, store: any LaurelStore, catalog: Catalog, metrics: ServerMetrics, logger: Logger) {
        self.metrics = metrics
        self.configuration = configuration
        self.store = store
        self.catalog = catalog
        self.engine = ProgressEngine(catalog: catalog)
        self.registry = SessionRegistry(limits: configuration.limits, metrics: metrics)
        self.logger = logger
    }
}

/// An authenticated request: who asks, the session that serialises the user's writes, and the services.
struct RequestContext: Sendable {
    let user: AuthenticatedUser
    /// The connection the request came on.
    let lineWriter: ConnectionLineWriter
    let session: UserSession
    let services: ServerResources
    /// What the request took from the user's log rate (set for the verbs that spend it).
    var factAllowance = FactAllowance.notSpent

    var store: any LaurelStore { services.store }
    var catalog: Catalog { services.catalog }
    /// The engine, keeping the user's state in the session between evaluations.
    var engine: ProgressEngine { services.engine.caching(in: session.stateCache) }

    /// Runs a writing unit of work in its own transaction. The caller holds the user's turn: every verb the
    /// ``VerbTable`` marks as writing does.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any UserRecords) throws -> T) async throws -> T {
        let cache = session.stateCache
        do {
            let value = try await services.store.write(user: user.id, body)
            // The transaction moved the user's state version on: what the session holds beyond the engine state
            // that transaction kept is to be read again.
            cache.demote()
            return value
        } catch {
            // Whatever the transaction kept in memory may not have been committed.
            cache.forget()
            throw error
        }
    }

    /// What the session holds of the user's progress, loaded in one read when it holds none (or an outdated one).
    func sessionProgress(now: Date) async throws -> SessionProgress {
        let cache = session.stateCache
        if let held = cache.progress {
            services.metrics.countProgressRead(source: .session)
            return held
        }
        if let behind = cache.progressBehind,
           let changes = try await services.store.logsSince(
               user: user.id, version: behind.version, lastSeq: behind.lastSeq, afterLogSeq: behind.state.lastLogSeq,
               challengesOf: behind.challengeBoard?.day),
           let caughtUp = behind.caughtUp(with: changes) {
            services.metrics.countProgressRead(source: .caughtUp)
            cache.keep(caughtUp)
            return caughtUp
        }
        services.metrics.countProgressRead(source: .store)
        let engine = self.engine
        let progress = try await read { records in try SessionProgress(records: records, engine: engine, now: now) }
        cache.keep(progress)
        return progress
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any UserRecords) throws -> T) async throws -> T {
        try await services.store.read(user: user.id, body)
    }
}

/// A handler's answer: the `OK` value, and the stored pushes to deliver to the user's connections after it.
struct RequestOutcome: Sendable {
    var value: JSONValue?
    var pushes: [StoredPush] = []
    /// Set when the connection is to say `BYE` with this reason and close after the answer.
    var closeReason: String?
    /// Whether the request stored a new fact (a LOG, LESSON.DONE or EVENT that was not a retry): only then does
    /// it keep the log it took from the user's rate.
    var storedNewFact = false
    /// Work that belongs to the request but follows its answer. It never answers: the tag has had its one answer.
    var followUp: (@Sendable () async -> Void)?

    init(_ value: JSONValue?, pushes: [StoredPush] = [], closeReason: String? = nil) {
        self.value = value
        self.pushes = pushes
        self.closeReason = closeReason
    }
}
