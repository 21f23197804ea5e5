import DequeModule
import Synchronization

/// Lets a bounded number of connections answer their first requests (AUTH and what comes before it) at once; the
/// others wait their turn in arrival order. When thousands of clients connect together, every AUTH under way
/// holds a task and the memory of its session load while it waits for a database connection; letting them all
/// start at once made the server's heap peak and then keep the holes the finished ones left between the
/// connections' long-lived memory (an idle connection's figure varied by a third from run to run).
///
/// One source address takes at most a quarter of the places (`perSourceLimit`); its connections beyond that wait
/// apart and join the end of the line as its places free. AUTHs from one address are decided one at a time (its
/// failed-AUTH allowance), so a crowd behind one address (a carrier's NAT reconnecting after a restart), or one whose
/// turn is held up on another instance, had filled every place with AUTHs waiting for their address, and every
/// other client's AUTH waited behind the whole crowd.
final class AuthenticationGate: Sendable {
    /// A place entered, to be left with ``leave(_:)``: it carries its source, so that a place is given back to the
    /// share it was taken from.
    struct Place: Sendable {
        fileprivate let source: String?
    }

    private struct State: ~Copyable {
        var running = 0
        /// By source: its places taken, and those it asked for in `waiting`.
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
        self.perSourceLimit = max(1, self.limit / 4)
    }

    /// Waits until fewer than `limit` first requests are being answered, and `source` has fewer than
    /// `perSourceLimit` places taken or asked for (nil: a connection without an IP address, held to the overall
    /// limit alone), and counts this one.
    func enter(from source: String?) async -> Place {
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
        return Place(source: source)
    }

    /// Gives back a place `enter` counted, handing it to the longest waiting one.
    func leave(_ place: Place) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let source = place.source {
                assert(state.claimed[source] != nil, "a place left that its source never took")
                // The source's next connection joins the line at its end: it asked for a share after those waiting.
                if let first = state.heldBack[source]?.popFirst() {
                    if state.heldBack[source]?.isEmpty == true { state.heldBack[source] = nil }
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

    /// What the gate holds: places taken, connections waiting (in line and held back), and sources with a claim.
    var occupancy: (running: Int, waiting: Int, heldBack: Int, sources: Int) {
        state.withLock { state in
            (state.running, state.waiting.count, state.heldBack.values.reduce(0) { $0 + $1.count }, state.claimed.count)
        }
    }
}
