import LaurelCore

/// A token bucket: `burst` at once, refilled at `perSecond`. A user's log allowance in this instance's memory (a
/// device syncing its offline backlog sends a burst; the allowance in the database holds across instances) and a
/// connection's request allowance.
struct RateBucket: Sendable {
    let perSecond: Double
    let burst: Double
    private var tokens: Double
    private var lastRefill: ContinuousClock.Instant?

    init(perSecond: Double, burst: Int) {
        self.perSecond = perSecond
        self.burst = Double(burst)
        self.tokens = Double(burst)
    }

    mutating func refund() {
        tokens = min(burst, tokens + 1)
    }

    mutating func spend(at now: ContinuousClock.Instant) -> Duration? {
        if let lastRefill {
            let elapsed = now - lastRefill
            tokens = min(burst, tokens + elapsed.inSeconds * perSecond)
        }
        lastRefill = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return .milliseconds(Int(((1 - tokens) / perSecond * 1000).rounded(.up)))
    }
}
