/// What one load run does, resolved from the command line: the server, the users and connections, how the
/// requests are paced, and when the run stops.
struct LoadPlan: Sendable {
    /// How requests are paced.
    enum Pace: Sendable, Equatable {
        /// Each connection keeps `pipeline` requests in flight and sends the next one as soon as one is answered.
        case closedLoop(pipeline: Int)
        /// Requests leave on a fixed schedule, `logsPerSecond` in total over all connections, whether or not
        /// the earlier ones were answered.
        case openLoop(logsPerSecond: Double)
        /// No requests: the connections authenticate and stay idle until the duration is over, so that what idle
        /// connections cost the server can be measured.
        case idle
        /// Devices that stay for the whole run: the mixed requests of `SoakRequestLine` on an open-loop schedule,
        /// `requestsPerSecond` in total, each device reconnecting (with `resume_after`) about every
        /// `reconnectEvery` and whenever the server closes its connection.
        case soak(requestsPerSecond: Double, reconnectEvery: Duration)
    }

    /// When the measured part of the run ends.
    enum Stop: Sendable, Equatable {
        /// Requests are sent for this long after the warm-up.
        case afterDuration(Duration)
        /// Requests are sent until this many logs were acknowledged.
        case afterAcknowledged(Int)
    }

    var host: String
    /// One port per instance of the server; the connections of a user alternate between them.
    var ports: [Int]
    var users: Int
    var connections: Int
    var pace: Pace
    var stop: Stop
    /// Load that runs before the measurement starts and is left out of every figure but the unlock check.
    var warmup: Duration
    var activity: String
    /// When above 0, every LOG is backfilled: the n-th of a connection is dated `n mod backfillDays + 1` days back.
    var backfillDays = 0
    /// An achievement every user that logged at least once must have unlocked (the catalog's first-log
    /// milestone), counted as expected even when no response reported it; nil to rely on responses alone.
    var expectedUnlock: String?
    /// When set, the report also breaks the latency down into slices of the measurement this long (`LatencyTimeline`).
    var latencyTimelineSlice: Duration?
    /// A request to send instead of LOGs (`--request`): a verb and its JSON argument.
    var requestLine: String?
    /// Names this run's users and log ids, so runs never collide.
    var runID: String

    /// The port connection `index` talks to: the k-th connection of a user goes to the instance after the one
    /// of its (k-1)-th, so a user's connections are spread over the instances and so are the users.
    func port(ofConnection index: Int) -> Int {
        let user = index % users
        let nth = index / users
        return ports[(user + nth) % ports.count]
    }

    /// How long requests still in flight may take to be answered once sending has stopped.
    var drainTimeout: Duration = .seconds(10)
    /// How long connections keep reading after the last response, so late pushes are still counted.
    var pushGrace: Duration = .seconds(1)
    /// How long connecting, greeting and authenticating all connections may take.
    var handshakeTimeout: Duration = .seconds(30)

    var modeName: String {
        switch pace {
        case .closedLoop: "closed"
        case .openLoop: "open"
        case .idle: "idle"
        case .soak: "soak"
        }
    }

    var pipeline: Int {
        switch pace {
        case .closedLoop(let pipeline): pipeline
        case .openLoop: 1
        case .idle: 0
        case .soak: 1
        }
    }

    var rate: Double? {
        switch pace {
        case .closedLoop, .idle: nil
        case .openLoop(let logsPerSecond): logsPerSecond
        case .soak(let requestsPerSecond, _): requestsPerSecond
        }
    }
}
