/// The waits between a client's attempts to connect (``ReconnectPolicy``).
struct ReconnectBackoff: Sendable {
    let policy: ReconnectPolicy
    private var failures = 0

    init(policy: ReconnectPolicy) {
        self.policy = policy
    }

    /// The wait before the next attempt, with jitter.
    mutating func nextDelay(random: Double = Double.random(in: 0...1)) -> Duration {
        let doubled = policy.initialDelay * Int(1 << min(failures, 20))
        failures += 1
        let capped = min(doubled, policy.maxDelay)
        return capped * (1 - policy.jitter * random)
    }

    /// A connection worked for a while: the next wait is the shortest again.
    mutating func reset() {
        failures = 0
    }
}
