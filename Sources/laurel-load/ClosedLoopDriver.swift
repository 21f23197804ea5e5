import LaurelClient

/// Paces one connection in the closed loop: it keeps `pipeline` LOG requests in flight and sends the next one
/// as soon as one is answered, so the server's speed sets the rate. Latency runs from the moment a request is
/// written. ``ClosedLoopReceiver`` runs it on the connection's event loop.
struct ClosedLoopDriver {
    struct InFlight {
        let sentAt: ContinuousClock.Instant
        let measured: Bool
        /// Whether the request holds a slot of the `--count` budget.
        let claimed: Bool
    }

    let pipeline: Int
    let window: MeasurementWindow
    let budget: RequestBudget?
    let requests: LoadRequest
    /// With the tag number the connection gave each request. A few at most (`--pipeline`): a search of an array
    /// costs less than hashing.
    private var inFlight: [(tag: Int, request: InFlight)] = []
    private(set) var measuredSent = 0
    private var nextSequence = 0

    init(pipeline: Int, window: MeasurementWindow, budget: RequestBudget?, requests: LoadRequest) {
        self.pipeline = pipeline
        self.window = window
        self.budget = budget
        self.requests = requests
        inFlight.reserveCapacity(pipeline)
    }

    /// Sends requests until `pipeline` are in flight or the run allows no more for now, all in one write.
    mutating func fill(_ connection: LaurelConnection) {
        let requests = self.requests
        var unflushed = false
        while inFlight.count < pipeline {
            let now = ContinuousClock.now
            if window.isOver(at: now) { break }
            let measured = window.isMeasured(now)
            var claimed = false
            if measured, let budget {
                guard case .granted = budget.claim() else { break }
                claimed = true
            }
            let sequence = nextSequence
            nextSequence += 1
            let filled = inFlight.count + 1 == pipeline
            let tag = connection.send(requests.verb, flush: filled) { requests.write(sequence: sequence, into: &$0) }
            unflushed = !filled
            inFlight.append((tag, InFlight(sentAt: now, measured: measured, claimed: claimed)))
            if measured { measuredSent += 1 }
        }
        if unflushed { connection.flush() }
    }

    /// The request the answer tagged `tag` answers, which is no longer in flight.
    mutating func take(tag: Int) -> InFlight? {
        guard let index = inFlight.firstIndex(where: { $0.tag == tag }) else { return nil }
        return inFlight.remove(at: index).request
    }

    /// The requests still waiting for their answers.
    var inFlightRequests: [InFlight] { inFlight.map(\.request) }

    /// Nothing in flight after a fill: this connection has nothing more to do.
    var isIdle: Bool { inFlight.isEmpty }
}
