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
    private var logAllowance: RateBucket

    init(user: AuthenticatedUser, limits: UserLimits) {
        self.user = user
        self.logAllowance = RateBucket(perSecond: limits.logsPerSecond, burst: limits.logBurst)
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
