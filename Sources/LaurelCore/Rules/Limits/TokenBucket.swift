/// A token bucket: `burst` tokens at once, refilled at `perSecond`. Pure arithmetic over a time in seconds, so the
/// same rule serves the user's log allowance (stored with the user, dated by the wall clock) and a connection's
/// request allowance (held by the connection, dated by a monotonic clock).
public struct TokenBucket: Sendable, Equatable {
    /// Tokens in the bucket at `updated`; nil for a full bucket never spent from.
    public private(set) var tokens: Double?
    /// When `tokens` was counted, in seconds on the caller's clock.
    public private(set) var updated: Double?

    public init(tokens: Double? = nil, updated: Double? = nil) {
        self.tokens = tokens
        self.updated = updated
    }

    /// Tokens available at `now`: refilled since they were counted, up to the burst.
    public func available(at now: Double, perSecond: Double, burst: Double) -> Double {
        guard let tokens, let updated else { return burst }
        return min(burst, tokens + max(0, now - updated) * perSecond)
    }

    /// Takes one token at `now`; when there is none, nothing changes and the answer is how long until there is
    /// one, in whole milliseconds (at least 1).
    public mutating func spend(at now: Double, perSecond: Double, burst: Double) -> Int? {
        let available = available(at: now, perSecond: perSecond, burst: burst)
        guard available >= 1 else {
            guard perSecond > 0 else { return 1000 }
            return max(1, Int(((1 - available) / perSecond * 1000).rounded(.up)))
        }
        tokens = available - 1
        updated = now
        return nil
    }

    /// Gives one token back (a request that took one stored nothing).
    public mutating func refund(burst: Double) {
        guard let tokens else { return }
        self.tokens = min(burst, tokens + 1)
    }
}
