import Foundation

/// How many failed AUTHs one source address may make: `burst` at once, `perSecond` sustained. It slows a guesser of
/// tokens, however many connections and instances it spreads its guesses over.
public struct FailedAuthLimit: Sendable, Equatable {
    public var perSecond: Double
    public var burst: Int

    public init(perSecond: Double = 1, burst: Int = 20) {
        self.perSecond = perSecond
        self.burst = burst
    }

    /// How long a spent allowance takes to be whole again: a source last refused or failing longer ago than this
    /// has its full allowance, so its stored state can go.
    public var refillSeconds: Double { perSecond > 0 ? Double(burst) / perSecond : .infinity }
}

/// A source address's allowance of failed AUTHs (``FailedAuthLimit``), kept where every instance sees it. An AUTH
/// from a source with no failure left is refused whatever its token: a refusal that told right from wrong would let
/// a guesser check tokens at full speed. A failed AUTH spends one; a successful one spends nothing.
public struct FailedAuthAllowance: Sendable, Equatable {
    public var bucket: TokenBucket

    /// The allowance as stored: the failures left when one was last spent, and when (nil: never spent, whole).
    public init(available: Double?, at: Date?) {
        bucket = TokenBucket(tokens: available, updated: at?.timeIntervalSince1970)
    }

    public var available: Double? { bucket.tokens }
    public var spentAt: Date? { bucket.updated.map(Date.init(timeIntervalSince1970:)) }

    /// Nil when an AUTH may be checked at `now`, else the milliseconds until one may.
    public func refusal(at now: Date, limit: FailedAuthLimit) -> Int? {
        var trial = bucket
        return trial.spend(at: now.timeIntervalSince1970, perSecond: limit.perSecond, burst: Double(limit.burst))
    }

    /// Spends one failure at `now` (checked first with ``refusal(at:limit:)``).
    public mutating func spendFailure(at now: Date, limit: FailedAuthLimit) {
        _ = bucket.spend(at: now.timeIntervalSince1970, perSecond: limit.perSecond, burst: Double(limit.burst))
    }
}
