import Synchronization

/// The moments that frame the load, fixed when every connection has authenticated.
struct MeasurementWindow: Sendable {
    /// When the first requests (warm-up included) may leave.
    let loadStart: ContinuousClock.Instant
    /// Requests meant to leave from here on are measured.
    let measureStart: ContinuousClock.Instant
    /// No request is meant to leave from here on; nil in a `--count` run.
    let loadEnd: ContinuousClock.Instant?

    func isMeasured(_ sendTime: ContinuousClock.Instant) -> Bool {
        sendTime >= measureStart
    }

    func isOver(at instant: ContinuousClock.Instant) -> Bool {
        loadEnd.map { instant >= $0 } ?? false
    }
}

/// What every connection learns when the load begins.
struct LoadStart: Sendable {
    let window: MeasurementWindow
    /// How many connections authenticated and take part, which sets each one's share of an open-loop rate.
    let liveConnections: Int
}

/// Holds every authenticated connection back until all of them are ready, then releases them at once, so
/// that connection set-up never overlaps the measured load.
final class StartSignal: Sendable {
    private struct State {
        var start: LoadStart?
        var waiters: [CheckedContinuation<LoadStart, Never>] = []
    }

    private let state = Mutex(State())

    func wait() async -> LoadStart {
        await withCheckedContinuation { continuation in
            let start = state.withLock { state -> LoadStart? in
                if let start = state.start { return start }
                state.waiters.append(continuation)
                return nil
            }
            if let start { continuation.resume(returning: start) }
        }
    }

    func fire(_ start: LoadStart) {
        let waiters = state.withLock { state in
            state.start = start
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: start) }
    }
}
