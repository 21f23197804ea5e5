import DequeModule
import Synchronization

/// Lets a bounded number of connections answer their first requests (AUTH and what comes before it) at once; the
/// others wait their turn in arrival order. When thousands of clients connect together, every AUTH under way
/// holds a task and the memory of its session load while it waits for a database connection; letting them all
/// start at once made the server's heap peak and then keep the holes the finished ones left between the
/// connections' long-lived memory (an idle connection's figure varied by a third from run to run).
///
/// One source address takes at most half the places (`perSourceLimit`); its connections beyond that wait apart and
/// join the line as its places free. AUTHs from one address are decided one at a time (its failed-AUTH allowance), so
/// a crowd behind one address (a carrier's NAT reconnecting after a restart), or one whose turn is held up on another
/// instance, had filled every place with AUTHs waiting for their address, and every other client's AUTH waited
/// behind the whole crowd.
final class AuthenticationGate: Sendable {
    private struct State: ~Copyable {
        var running = 0
        /// Places taken or asked for in `waiting`, by source.
        var claimed: [String: Int] = [:]
        /// Who waits for a place, in arrival order (each within its source's share).
        var waiting = Deque<CheckedContinuation<Void, Never>>()
        /// Who waits for a share of its source's places, by source, in arrival order.
        var heldBack: [String: Deque<CheckedContinuation<Void, Never>>] = [:]
    }

    private let state = Mutex(State())
    let limit: Int
    let perSourceLimit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
        self.perSourceLimit = max(1, self.limit / 2)
    }

    /// Waits until fewer than `limit` first requests are being answered, and fewer than `perSourceLimit` of
    /// `source`'s (nil: a connection without an IP address, held to the overall limit alone), and counts this one.
    func enter(from source: String? = nil) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                if let source {
                    let claimed = state.claimed[source, default: 0]
                    guard claimed < perSourceLimit else {
                        state.heldBack[source, default: []].append(continuation)
                        return false
                    }
                    state.claimed[source] = claimed + 1
                }
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

    /// Ends a request `enter` counted (with the same `source`), handing its place to the longest waiting one.
    func leave(from source: String? = nil) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let source {
                // The source's next connection joins the line at its end: it asked for a share later than those.
                if var held = state.heldBack[source], let first = held.popFirst() {
                    state.heldBack[source] = held.isEmpty ? nil : held
                    state.waiting.append(first)
                } else {
                    let claimed = state.claimed[source, default: 1] - 1
                    state.claimed[source] = claimed > 0 ? claimed : nil
                }
            }
            guard let next = state.waiting.popFirst() else {
                state.running -= 1
                return nil
            }
            return next
        }
        next?.resume()
    }
}
