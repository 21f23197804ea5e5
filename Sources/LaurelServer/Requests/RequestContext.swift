import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore
import Logging
import Synchronization

/// What every request handler may use: the configuration, the store, the rules and the connected sessions.
final class ServerResources: Sendable {
    let configuration: ServerConfiguration
    let store: any LaurelStore
    /// The catalog, limits and time policy every user is evaluated by.
    let rules: Rulebook
    let registry: SessionRegistry
    let metrics: ServerMetrics
    let logger: Logger
    /// Lets 32 connections answer their first requests at once (twice the default database pool: more would
    /// only wait for it).
    let authentications = AuthenticationGate(limit: 32)
    /// Built-in achievements' rarity, read in the background.
    let rarity = RarityTable()
    /// The board keys this instance ranks in memory.
    let boards: LoadedBoards
    /// Brings pushes stored elsewhere to the users' connections here.
    let pushDelivery: StoredPushDelivery
    /// Whether another instance has been heard of (``StoreEvent/instanceElsewhere(greeting:)``).
    private let instancesElsewhere = Atomic<Bool>(false)

    init(configuration: ServerConfiguration, store: any LaurelStore, catalog: Catalog, metrics: ServerMetrics, logger: Logger) {
        self.metrics = metrics
        self.configuration = configuration
        self.store = store
        self.rules = Rulebook(
            catalog: catalog, limits: configuration.limits, logTimes: configuration.logTimePolicy,
            standingsRefresh: configuration.weekRankingRefresh.inSeconds)
        self.registry = SessionRegistry(metrics: metrics)
        self.boards = LoadedBoards(store: store, maxKeys: configuration.maxHeldBoards, logger: logger)
        self.pushDelivery = StoredPushDelivery(registry: registry, store: store, metrics: metrics)
        self.logger = logger
    }

    var catalog: Catalog { rules.catalog }

    /// Whether a user may hold a session on another instance: another instance has been heard of
    /// (``noteInstanceElsewhere(greeting:)``). From then on every session's first write announces its change
    /// (``HeldProgress/beginCommit(from:othersMayHold:)``); an instance alone announces nothing for it.
    var othersMayHoldSessions: Bool { instancesElsewhere.load(ordering: .relaxed) }

    /// Another instance greeted the others, answered a greeting or committed writes its sessions decided.
    func noteInstanceElsewhere(greeting: Bool) {
        metrics.countInstanceHeard(greeting: greeting)
        // Heard with every notification of another instance's writes: the flag's line is written once, not each time.
        if !instancesElsewhere.load(ordering: .relaxed) { instancesElsewhere.store(true, ordering: .relaxed) }
    }
}

/// An authenticated request: who asks, the session that serialises the user's writes, and the services.
struct RequestContext: Sendable {
    let user: AuthenticatedUser
    /// The connection the request came on; nil for a write the server makes for a user itself (an inviter's `invite`
    /// event).
    let lineWriter: ConnectionLineWriter?
    let session: UserSession
    let services: ServerResources

    var store: any LaurelStore { services.store }
    var catalog: Catalog { services.catalog }
    /// The moment the request is decided at, by the server's clock.
    var now: Date { services.configuration.clock.now }

    /// Decides and commits a write of the user (``WriteRoute``). The caller holds the user's turn: every verb the
    /// ``VerbTable`` marks as writing does.
    func write(
        _ change: UserChange, now: Date, answer: @escaping @Sendable (Decision, _ pushes: [PushDraft]) -> [UInt8]? = { _, _ in nil }
    ) async throws -> WriteRoute.Performed {
        try await WriteRoute(context: self).perform(change, now: now, answer: answer)
    }

    /// The user's progress as the session holds it, for reads: the held one when it is current, else caught up with
    /// what was committed since, else loaded whole.
    func sessionProgress(now: Date) async throws -> SessionProgress {
        try await progress(now: now, via: store.access(to: user.id), verified: false)
    }

    /// The user's progress, brought up to the store's version through `access`.
    /// - Parameter verified: even a progress held as current is checked against the store (one statement).
    func progress(now: Date, via access: any UserAccess, verified: Bool) async throws -> SessionProgress {
        let held = session.progress
        let metrics = services.metrics
        if !verified, let current = held.current {
            metrics.countProgressRead(source: .session)
            return current
        }
        if let behind = held.behind,
           let changes = try await access.changes(since: behind.position, periods: behind.progress.challenges.knownPeriods),
           let caughtUp = behind.caughtUp(with: changes) {
            metrics.countProgressRead(source: .caughtUp)
            held.keep(caughtUp)
            return caughtUp
        }
        metrics.countProgressRead(source: .store)
        let rules = services.rules
        let loaded = try await access.read { reader in try SessionProgress(reading: reader, rules: rules, now: now) }
        held.keep(loaded)
        return loaded
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any UserReader) throws -> T) async throws -> T {
        try await services.store.read(user: user.id, body)
    }
}

/// A handler's answer: the `OK` value, and the stored pushes to deliver to the user's connections after it.
struct RequestOutcome: Sendable {
    /// The `OK` value, as JSON text written straight into bytes, or none.
    var json: [UInt8]?
    var pushes: [StoredPush] = []
    /// Set when the connection is to say `BYE` with this reason and close after the answer.
    var closeReason: String?
    /// Work that belongs to the request but follows its answer. It never answers: the tag has had its one answer.
    var followUp: (@Sendable () async -> Void)?

    init(_ value: JSONValue?, pushes: [StoredPush] = [], closeReason: String? = nil) {
        if let value {
            var bytes: [UInt8] = []
            value.write(into: &bytes)
            json = bytes
        }
        self.pushes = pushes
        self.closeReason = closeReason
    }

    init(json: JSONWriter, pushes: [StoredPush] = []) {
        self.json = json.bytes
        self.pushes = pushes
    }

    init(jsonText: String, pushes: [StoredPush] = []) {
        self.json = Array(jsonText.utf8)
        self.pushes = pushes
    }

    /// An `OK` value that is JSON text's UTF-8 already (an answer kept with a new fact).
    init(jsonBytes: [UInt8], pushes: [StoredPush] = []) {
        self.json = jsonBytes
        self.pushes = pushes
    }
}
