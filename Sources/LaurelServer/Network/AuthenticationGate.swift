import NIOCore
import Synchronization

/// Lets a bounded number of connections answer their first requests (AUTH and what comes before it) at once; the
/// others wait their turn in arrival order. When thousands of clients connect together, every AUTH under way
/// holds a task and the memory of its session load while it waits for a database connection; letting them all
/// start at once made the server's heap peak and then keep the holes the finished ones left between the
/// connections' long-lived memory (an idle connection's figure varied by a third from run to run).
final class AuthenticationGate: Sendable {
    private struct State: ~Copyable {
        var running = 0
        var waiting = CircularBuffer<CheckedContinuation<Void, Never>>()
    }

    private let state = Mutex(State())
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits until fewer than `limit` first requests are being answered, and counts this one.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                guard state.running < limit else {
                    state.waiting.append(continuation)
                    return false
                }
                state.running += 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// Ends a request `enter` counted, handing its place to the longest waiting one.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let next = state.waiting.popFirst() else {
                state.running -= 1
                return nil
            }
            return next
        }
        next?.resume()
    }
}
