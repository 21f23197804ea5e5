import Synchronization

/// Whether a connection's lines may still go out, and its requests still be answered: the channel is active, takes
/// more lines (it is below its high write watermark, `--max-outbound-buffer`), and `BYE` has not been said.
///
/// The channel's event loop notes what it sees (``InboundFrameHandler``), the connection's writer and request loop
/// read it under the one lock the writer takes for every line anyway. Asking the channel instead (`isActive`,
/// `isWritable`, for every request and every line) followed two and three references to atomics on lines the event
/// loop had last written: about 1 % of the server's CPU in the closed loop.
final class LineGate: Sendable {
    struct State {
        var active = true
        var writable = true
        /// `BYE` was said: nothing more is written.
        var closed = false
    }

    private let state = Mutex(State())

    /// Whether the channel is still active (requests read from a channel gone are not executed).
    var isActive: Bool { state.withLock { $0.active } }

    /// Runs `body` on the state, under the lock that orders the connection's lines.
    func withState<T>(_ body: (inout State) -> T) -> T {
        state.withLock { body(&$0) }
    }

    /// The channel went inactive.
    func noteInactive() {
        state.withLock { $0.active = false }
    }

    /// The channel's writability changed.
    func noteWritable(_ writable: Bool) {
        state.withLock { $0.writable = writable }
    }
}
