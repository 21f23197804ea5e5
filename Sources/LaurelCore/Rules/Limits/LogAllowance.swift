import Foundation

/// The user's allowance of new facts (rules.md, "Limits and validation": 50 logs a second sustained, bursts up to
/// 1000, configurable): a token bucket kept with the user's stored figures, so that it holds across connections,
/// reconnects and instances. Every new log, lesson completion and event spends one; a retry spends nothing.
public struct LogAllowance: Sendable, Equatable {
    public var bucket: TokenBucket

    public init(bucket: TokenBucket = TokenBucket()) {
        self.bucket = bucket
    }

    /// The allowance as stored: the logs left when it was last spent, and when.
    public init(available: Double?, at: Date?) {
        bucket = TokenBucket(tokens: available, updated: at?.timeIntervalSince1970)
    }

    public var available: Double? { bucket.tokens }
    public var spentAt: Date? { bucket.updated.map(Date.init(timeIntervalSince1970:)) }

    /// Spends one new fact at `now`; nil when allowed, else the milliseconds until one is.
    public mutating func spend(at now: Date, limits: UserLimits) -> Int? {
        bucket.spend(at: now.timeIntervalSince1970, perSecond: limits.logsPerSecond, burst: Double(limits.logBurst))
    }
}
