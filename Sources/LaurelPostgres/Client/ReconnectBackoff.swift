import Synchronization

/// How long to wait before trying to connect again after attempts failed: 100 ms after the first
/// failure, doubling with each further failure up to 5 s, back to none after a success. While the
/// wait runs, callers fail fast instead of each waiting out a connect timeout.
struct ReconnectBackoff: Sendable {
    static let initialDelay: Duration = .milliseconds(100)
    static let maximumDelay: Duration = .seconds(5)

    /// The first wait; later ones double up to `maximumDelay` (or stay at the first wait when it is longer).
    let firstDelay: Duration

    init(firstDelay: Duration = ReconnectBackoff.initialDelay) {
        self.firstDelay = firstDelay
    }

    private(set) var delay: Duration?
    private(set) var retryAt: ContinuousClock.Instant?
    private(set) var lastFailure: String?

    func permitsAttempt(at now: ContinuousClock.Instant) -> Bool {
        guard let retryAt else { return true }
        return now >= retryAt
    }

    /// Records a failed attempt. Attempts that fail while a wait is already running (several
    /// threads tried at once) do not lengthen it again.
    mutating func recordFailure(_ message: String, at now: ContinuousClock.Instant) {
        lastFailure = message
        if let retryAt, now < retryAt {
            return
        }
        let next = delay.map { max(min($0 * 2, Self.maximumDelay), firstDelay) } ?? firstDelay
        delay = next
        retryAt = now + next
    }

    mutating func recordSuccess() {
        delay = nil
        retryAt = nil
        lastFailure = nil
    }
}

/// The backoff the threads of one pool share: one failed attempt makes every thread wait, so a database that is
/// down sees one connection attempt per wait, not one per thread.
final class SharedReconnectBackoff: Sendable {
    private let state: Mutex<ReconnectBackoff>

    init(_ backoff: ReconnectBackoff) {
        state = Mutex(backoff)
    }

    /// Why an attempt now would be refused (the last failure), or nil when one may be made.
    func refusal(at now: ContinuousClock.Instant) -> String? {
        state.withLock { $0.permitsAttempt(at: now) ? nil : ($0.lastFailure ?? "connection failed") }
    }

    func recordSuccess() {
        state.withLock { $0.recordSuccess() }
    }

    /// Records a failed attempt; returns the wait before the next one.
    func recordFailure(_ message: String, at now: ContinuousClock.Instant) -> Duration? {
        state.withLock { state in
            state.recordFailure(message, at: now)
            return state.delay
        }
    }
}
