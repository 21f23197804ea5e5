import Synchronization

/// The server's own counters, read by `/metrics`: connections, requests by verb, errors by code, unlocks and
/// pushes. Cheap to bump from any task (a few atomics and one small locked table).
public final class ServerMetrics: Sendable {
    let connectionsOpen = Atomic<Int>(0)
    let connectionsAccepted = Atomic<Int>(0)
    let connectionsRefused = Atomic<Int>(0)
    let unlocks = Atomic<Int>(0)
    let pushesDelivered = Atomic<Int>(0)
    /// Connections closed because their client left too much unread (`BYE slow_consumer`).
    let slowConsumers = Atomic<Int>(0)
    /// Requests read from a connection that had closed by the time their turn came, dropped unexecuted.
    let requestsDropped = Atomic<Int>(0)
    /// New logs stored from the session's state in one statement (group-committed), and those that took the
    /// transactional path (a stale state, a speed window, a retry or a refusal).
    let factsFromSession = Atomic<Int>(0)
    let factsInTransaction = Atomic<Int>(0)
    /// Times a request used the user's progress as the session held it, and times it had to load it first.
    let progressFromSession = Atomic<Int>(0)
    let progressLoaded = Atomic<Int>(0)
    let progressCaughtUp = Atomic<Int>(0)
    /// Times the store's events (re)started and the connected users were compared with the store.
    let storeEventResumes = Atomic<Int>(0)
    private let requests = Mutex<[String: Int]>([:])
    private let errors = Mutex<[String: Int]>([:])

    public init() {}

    func countRequest(verb: String) {
        requests.withLock { $0[verb, default: 0] += 1 }
    }

    func countFactStored(fromSession: Bool) {
        if fromSession {
            factsFromSession.wrappingAdd(1, ordering: .relaxed)
        } else {
            factsInTransaction.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// Where a request found the user's session progress.
    enum ProgressSource {
        /// Held by the session, current.
        case session
        /// Held at an older version and brought up to date with the LOGs stored since (one statement).
        case caughtUp
        /// Loaded whole from the store.
        case store
    }

    func countProgressRead(source: ProgressSource) {
        switch source {
        case .session: progressFromSession.wrappingAdd(1, ordering: .relaxed)
        case .caughtUp: progressCaughtUp.wrappingAdd(1, ordering: .relaxed)
        case .store: progressLoaded.wrappingAdd(1, ordering: .relaxed)
        }
    }

    func countError(code: String) {
        errors.withLock { $0[code, default: 0] += 1 }
    }

    /// The Prometheus text exposition format (version 0.0.4).
    public func exposition() -> String {
        var lines: [String] = []
        func gauge(_ name: String, _ help: String, _ value: Int, type: String = "gauge") {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            lines.append("\(name) \(value)")
        }
        gauge("laurel_connections_open", "Client connections open now.", connectionsOpen.load(ordering: .relaxed))
        gauge("laurel_connections_accepted_total", "Client connections accepted.", connectionsAccepted.load(ordering: .relaxed), type: "counter")
        gauge("laurel_connections_refused_total", "Connections refused because the server was full.",
              connectionsRefused.load(ordering: .relaxed), type: "counter")
        gauge("laurel_unlocks_total", "Achievements unlocked by this instance.", unlocks.load(ordering: .relaxed), type: "counter")
        gauge("laurel_pushes_delivered_total", "Stored pushes written to client connections.", pushesDelivered.load(ordering: .relaxed), type: "counter")
        gauge("laurel_slow_consumer_disconnects_total", "Connections closed because their client did not read what it was sent.",
              slowConsumers.load(ordering: .relaxed), type: "counter")
        gauge("laurel_requests_dropped_total", "Requests not executed because their connection had closed.",
              requestsDropped.load(ordering: .relaxed), type: "counter")
        gauge("laurel_store_event_resumes_total",
              "Times the database's events were heard again after a lost connection (or first), each followed by comparing every connected user with the database.",
              storeEventResumes.load(ordering: .relaxed), type: "counter")
        lines.append("# HELP laurel_facts_stored_total New logs, lesson completions and events stored, by path (session: one group-committed statement).")
        lines.append("# TYPE laurel_facts_stored_total counter")
        lines.append("laurel_facts_stored_total{path=\"session\"} \(factsFromSession.load(ordering: .relaxed))")
        lines.append("laurel_facts_stored_total{path=\"transaction\"} \(factsInTransaction.load(ordering: .relaxed))")
        lines.append("# HELP laurel_session_progress_total Uses of a user's progress: held by the session, or loaded first.")
        lines.append("# TYPE laurel_session_progress_total counter")
        lines.append("laurel_session_progress_total{source=\"session\"} \(progressFromSession.load(ordering: .relaxed))")
        lines.append("laurel_session_progress_total{source=\"store\"} \(progressLoaded.load(ordering: .relaxed))")
        lines.append("laurel_session_progress_total{source=\"caught_up\"} \(progressCaughtUp.load(ordering: .relaxed))")
        lines.append("# HELP laurel_requests_total Requests answered, by verb.")
        lines.append("# TYPE laurel_requests_total counter")
        for (verb, count) in requests.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            lines.append("laurel_requests_total{verb=\"\(verb)\"} \(count)")
        }
        lines.append("# HELP laurel_errors_total Requests answered with ERR, by code.")
        lines.append("# TYPE laurel_errors_total counter")
        for (code, count) in errors.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            lines.append("laurel_errors_total{code=\"\(code)\"} \(count)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
