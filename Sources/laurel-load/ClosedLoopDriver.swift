import NIOCore

/// Paces one connection in the closed loop: it keeps `pipeline` LOG requests in flight and sends the next one
/// as soon as one is answered, so the server's speed sets the rate. Latency runs from the moment a request is
/// written.
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
    let requests: LogRequestLine
    private(set) var inFlight: [Int: InFlight] = [:]
    private(set) var measuredSent = 0
    private var nextSequence = 0

    init(pipeline: Int, window: MeasurementWindow, budget: RequestBudget?, requests: LogRequestLine) {
        self.pipeline = pipeline
        self.window = window
        self.budget = budget
        self.requests = requests
    }

    /// Sends requests until `pipeline` are in flight or the run allows no more for now.
    mutating func fill(_ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        while inFlight.count < pipeline {
            let now = ContinuousClock.now
            if window.isOver(at: now) { return }
            let measured = window.isMeasured(now)
            var claimed = false
            if measured, let budget {
                guard case .granted = budget.claim() else { return }
                claimed = true
            }
            let sequence = nextSequence
            nextSequence += 1
            inFlight[sequence] = InFlight(sentAt: now, measured: measured, claimed: claimed)
            if measured { measuredSent += 1 }
            try await outbound.write(requests.buffer(sequence: sequence))
        }
    }

    /// The request a response answers, which is no longer in flight.
    mutating func take(sequence: Int) -> InFlight? {
        inFlight.removeValue(forKey: sequence)
    }

    /// Nothing in flight after a fill: this connection has nothing more to do.
    var isIdle: Bool { inFlight.isEmpty }
}
