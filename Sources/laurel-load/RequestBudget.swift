import Synchronization

/// The logs still to be acknowledged in a `--count` run, shared by all connections.
///
/// A connection claims a slot before it sends a measured request and settles it with the answer. A request
/// answered with an error (or never answered) gives its slot back, so the run still aims for the full count;
/// giving back is allowed as many times as the count itself, which keeps a run against a failing server short.
final class RequestBudget: Sendable {
    enum Claim {
        /// Send the request.
        case granted
        /// Nothing to claim now, but requests in flight may still give their slots back.
        case later
        /// Every slot is used up for good.
        case exhausted
    }

    private struct State {
        var unclaimed: Int
        var outstanding = 0
        var returnsLeft: Int
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(unclaimed: count, returnsLeft: count))
    }

    func claim() -> Claim {
        state.withLock { state in
            if state.unclaimed > 0 {
                state.unclaimed -= 1
                state.outstanding += 1
                return .granted
            }
            return state.outstanding > 0 && state.returnsLeft > 0 ? .later : .exhausted
        }
    }

    func settle(acknowledged: Bool) {
        state.withLock { state in
            state.outstanding -= 1
            if !acknowledged && state.returnsLeft > 0 {
                state.returnsLeft -= 1
                state.unclaimed += 1
            }
        }
    }
}
