import CoreMetrics
import LaurelCore
import LaurelProtocol
import Metrics
import Prometheus
import Synchronization

/// The server's metrics, made through swift-metrics with a Prometheus registry of this server's own (so that two
/// servers in one process, as in the tests, count apart) and read by `/metrics`: connections, requests and their
/// latency by verb, errors by code, unlocks, pushes, the routes writes took and what they read, and the database
/// pool's queue (reported by the pool through the same factory).
public final class ServerMetrics: Sendable {
    /// Where every metric of this server is registered; `/metrics` prints it.
    public let registry: PrometheusCollectorRegistry
    /// The swift-metrics factory over `registry`, for the parts of the server made elsewhere (the database pool).
    public let factory: PrometheusMetricsFactory

    /// Connections open now: the server admits a connection against this count, and reports it.
    private let openConnections = Atomic<Int>(0)
    private let connectionsOpenGauge: CoreMetrics.Gauge
    let connectionsAccepted: CoreMetrics.Counter
    let connectionsRefused: CoreMetrics.Counter
    /// AUTHs refused unchecked because their source address had no failed AUTH left.
    let authRefusals: CoreMetrics.Counter
    let unlocks: CoreMetrics.Counter
    let pushesDelivered: CoreMetrics.Counter
    /// Pushes not written because their connection had closed or was being closed (a slow consumer).
    let pushesDropped: CoreMetrics.Counter
    /// Connections closed because their client left too much unread (`BYE slow_consumer`).
    let slowConsumers: CoreMetrics.Counter
    /// Requests read from a connection that had closed by the time their turn came, dropped unexecuted.
    let requestsDropped: CoreMetrics.Counter
    /// Times the store's events (re)started and the connected users were compared with the store.
    let storeEventResumes: CoreMetrics.Counter
    /// Commits that failed without telling whether they were stored (the user was then compared with the store).
    private let commitsInDoubt: CoreMetrics.Counter
    /// Writes committed at the session's version, and under the user's lock (after commits that kept finding the
    /// version moved on).
    private let writesAtSessionVersion: CoreMetrics.Counter
    private let writesUnderLock: CoreMetrics.Counter
    /// Commits that found the user's version moved on (written elsewhere in between) and were decided again.
    private let staleCommits: CoreMetrics.Counter
    private let progressFromSession: CoreMetrics.Counter
    private let progressLoaded: CoreMetrics.Counter
    private let progressCaughtUp: CoreMetrics.Counter
    private let announcedChangesAdded: CoreMetrics.Counter
    /// Notifications of other instances (`laurel_other_instances_heard_total`): their greetings when they began to
    /// hear the store's events (`greeting`), and their answers to this one's and their writes (`other`); 0 while this
    /// instance runs alone.
    private let instanceGreetingsHeard: CoreMetrics.Counter
    private let otherInstancesHeard: CoreMetrics.Counter
    /// Pieces of a user's stored state a decision read because the session did not hold them, by kind.
    private let piecesLoaded: [String: CoreMetrics.Counter]
    /// Reads a decision waited for to get the pieces it lacked (one read may bring several pieces).
    private let pieceReads: CoreMetrics.Counter
    /// Reads of stored pushes a user's connections here had not had when their announcement came.
    let pushCatchUpReads: CoreMetrics.Counter
    /// Users whose connections here were caught up on pushes stored elsewhere (announced, or found after a reconnect).
    let pushCatchUps: CoreMetrics.Counter
    /// Made once for every verb and error code there is, so that counting a request takes no lock.
    /// In the order of ``VerbTable/routes``.
    private let byVerb: [VerbMetrics]
    private let byErrorCode: [String: CoreMetrics.Counter]

    /// What is counted of one verb.
    private struct VerbMetrics {
        let requests: CoreMetrics.Counter
        let latency: CoreMetrics.Timer
    }

    public init() {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // From a PING on a quiet server to a LOG queued behind a full pool.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .seconds(2.5), .seconds(5), .seconds(10),
        ]
        // A commit batch holds one write up to the batch limit (256 by default).
        factory.valueHistogramBuckets["laurel_commit_batch_writes"] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
        self.registry = registry
        self.factory = factory
        func counter(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Counter {
            Counter(label: name, dimensions: dimensions, factory: factory)
        }
        connectionsOpenGauge = Gauge(label: "laurel_connections_open", factory: factory)
        connectionsAccepted = counter("laurel_connections_accepted_total")
        connectionsRefused = counter("laurel_connections_refused_total")
        authRefusals = counter("laurel_auth_refusals_total")
        unlocks = counter("laurel_unlocks_total")
        pushesDelivered = counter("laurel_pushes_delivered_total")
        pushesDropped = counter("laurel_pushes_dropped_total")
        slowConsumers = counter("laurel_slow_consumer_disconnects_total")
        requestsDropped = counter("laurel_requests_dropped_total")
        storeEventResumes = counter("laurel_store_event_resumes_total")
        commitsInDoubt = counter("laurel_commits_in_doubt_total")
        writesAtSessionVersion = counter("laurel_writes_total", [("route", "session_version")])
        writesUnderLock = counter("laurel_writes_total", [("route", "user_lock")])
        staleCommits = counter("laurel_stale_commits_total")
        progressFromSession = counter("laurel_session_progress_total", [("source", "session")])
        progressLoaded = counter("laurel_session_progress_total", [("source", "store")])
        progressCaughtUp = counter("laurel_session_progress_total", [("source", "caught_up")])
        announcedChangesAdded = counter("laurel_announced_changes_added_total")
        instanceGreetingsHeard = counter("laurel_other_instances_heard_total", [("as", "greeting")])
        otherInstancesHeard = counter("laurel_other_instances_heard_total", [("as", "other")])
        piecesLoaded = Dictionary(uniqueKeysWithValues: PieceKind.allCases.map { kind in
            (kind.rawValue, counter("laurel_pieces_loaded_total", [("piece", kind.rawValue)]))
        })
        pieceReads = counter("laurel_piece_reads_total")
        pushCatchUpReads = counter("laurel_push_catch_up_reads_total")
        pushCatchUps = counter("laurel_push_catch_ups_total")
        byVerb = VerbTable.routes.map { route in
            VerbMetrics(
                requests: counter("laurel_requests_total", [("verb", route.verb)]),
                latency: CoreMetrics.Timer(label: "laurel_request_duration_seconds", dimensions: [("verb", route.verb)], factory: factory))
        }
        byErrorCode = Dictionary(uniqueKeysWithValues: ErrorCode.allCases.map { code in
            (code.rawValue, counter("laurel_errors_total", [("code", code.rawValue)]))
        })
        connectionsOpenGauge.record(0)
    }

    /// Counts a connection in; returns how many are open with it.
    func connectionOpened() -> Int {
        let open = openConnections.wrappingAdd(1, ordering: .relaxed).newValue
        connectionsOpenGauge.record(open)
        return open
    }

    func connectionClosed() {
        connectionsOpenGauge.record(openConnections.wrappingSubtract(1, ordering: .relaxed).newValue)
    }

    /// Counts a request of the route's verb and how long it took to answer (from reading it to writing the answer).
    func countRequest(_ route: VerbRoute, tookNanoseconds nanoseconds: UInt64) {
        let metrics = byVerb[route.place]
        metrics.requests.increment()
        metrics.latency.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    func countError(code: ErrorCode) {
        byErrorCode[code.rawValue]?.increment()
    }

    /// A write was committed, at the session's version or under the user's lock.
    func countWrite(underLock: Bool) {
        // Each counter called where it is (the one chosen by a conditional expression was retained to be called).
        if underLock { writesUnderLock.increment() } else { writesAtSessionVersion.increment() }
    }

    /// A commit found the user's version moved on.
    func countStaleCommit() {
        staleCommits.increment()
    }

    func countCommitInDoubt() {
        commitsInDoubt.increment()
    }

    /// The kinds of piece a decision may read (``ProgressPiece``).
    enum PieceKind: String, CaseIterable {
        case challenges, storedFact = "stored_fact", log, neighbours, activityLogs = "activity_logs", logsWithin = "logs_within"
        case allFacts = "all_facts", weekStandings = "week_standings"

        init(_ piece: ProgressPiece) {
            switch piece {
            case .challenges: self = .challenges
            case .storedFact: self = .storedFact
            case .log: self = .log
            case .neighbours: self = .neighbours
            case .activityLogs: self = .activityLogs
            case .logsWithin: self = .logsWithin
            case .allFacts: self = .allFacts
            case .weekStandings: self = .weekStandings
            }
        }
    }

    /// Counts one read that brought `pieces`.
    func countPiecesRead(_ pieces: Set<ProgressPiece>) {
        pieceReads.increment()
        for piece in pieces { piecesLoaded[PieceKind(piece).rawValue]?.increment() }
    }

    /// Where a request found the user's session progress.
    enum ProgressSource {
        /// Held by the session, current.
        case session
        /// Held at an older version and brought up to date with the facts committed since (one statement).
        case caughtUp
        /// Loaded whole from the store.
        case store
    }

    func countProgressRead(source: ProgressSource) {
        switch source {
        case .session: progressFromSession.increment()
        case .caughtUp: progressCaughtUp.increment()
        case .store: progressLoaded.increment()
        }
    }

    /// A session added the change another instance's write announced, instead of reading what was committed.
    func countAnnouncedChangeAdded() {
        announcedChangesAdded.increment()
    }

    /// A notification of another instance was heard: its greeting, or an answer or its writes.
    func countInstanceHeard(greeting: Bool) {
        (greeting ? instanceGreetingsHeard : otherInstancesHeard).increment()
    }

    /// The Prometheus text exposition format (version 0.0.4).
    public func exposition() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
