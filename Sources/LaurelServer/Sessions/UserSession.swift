import DequeModule
import Foundation
import LaurelCore
import LaurelStore

/// One connected user: all of the user's connections on this instance share it. Its evaluation turn makes the
/// user's writing requests run one at a time, in arrival order (actor methods alone would interleave at every
/// `await`); the store's per-user lock extends that to other instances.
actor UserSession {
    nonisolated let user: AuthenticatedUser
    /// The engine's state as this instance last saved it (see `EngineStateCache`).
    nonisolated let stateCache = EngineStateCache()
    private var turnTaken = false
    private var waitingForTurn: Deque<CheckedContinuation<Void, Never>> = []
    private var logAllowance: LogRateBucket

    init(user: AuthenticatedUser, limits: UserLimits) {
        self.user = user
        self.logAllowance = LogRateBucket(perSecond: limits.logsPerSecond, burst: limits.logBurst)
    }

    /// Runs `work` when every earlier caller's work has finished.
    func inTurn<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        if turnTaken {
            await withCheckedContinuation { waitingForTurn.append($0) }
        } else {
            turnTaken = true
        }
        defer { passTurn() }
        return try await work()
    }

    /// Takes one log from the user's allowance; nil when allowed, else how long to wait.
    func spendLogAllowance(now: ContinuousClock.Instant = .now) -> Duration? {
        logAllowance.spend(at: now)
    }

    /// Gives back one log taken by `spendLogAllowance` (the request stored nothing new).
    func refundLogAllowance() {
        logAllowance.refund()
    }

    private func passTurn() {
        if waitingForTurn.isEmpty {
            turnTaken = false
        } else {
            waitingForTurn.removeFirst().resume()
        }
    }
}

/// A token bucket: `burst` logs at once (a device syncing its offline backlog), refilled at `perSecond`.
struct LogRateBucket: Sendable {
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
