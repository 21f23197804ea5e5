import NIOCore
import Synchronization

/// What the connections of a run share with the code that drives the run: how far each has got, the start
/// signal, the `--count` budget, and their channels, so the run can close them all when it is over.
final class LoadCoordinator: Sendable {
    struct Progress: Sendable {
        /// Connections that finished connecting and authenticating, successfully or not.
        var handshakesConcluded = 0
        var authenticated = 0
        /// Authenticated connections that sent everything they will send and had it answered, or were closed.
        var loadsFinished = 0
        var isClosing = false
    }

    private let progress = Mutex(Progress())
    private let channels = Mutex<[Int: RegisteredChannel]>([:])
    private let responses = Atomic<Int>(0)
    let startSignal = StartSignal()
    let budget: RequestBudget?
    /// Open loop: what wakes each event loop's connections to send.
    let pacers = OpenLoopPacers()

    init(budget: RequestBudget?) {
        self.budget = budget
    }

    var snapshot: Progress {
        progress.withLock { $0 }
    }

    /// Responses seen so far by all connections, to tell a slow run from a stalled one.
    var responseCount: Int {
        responses.load(ordering: .relaxed)
    }

    private struct RegisteredChannel {
        let channel: any Channel
        var isAuthenticated = false
    }

    func register(_ channel: any Channel, connection index: Int) {
        channels.withLock { $0[index] = RegisteredChannel(channel: channel) }
    }

    func handshakeConcluded(connection index: Int, authenticated: Bool) {
        if authenticated {
            channels.withLock { $0[index]?.isAuthenticated = true }
        }
        progress.withLock { progress in
            progress.handshakesConcluded += 1
            if authenticated { progress.authenticated += 1 }
        }
    }

    func loadFinished() {
        progress.withLock { $0.loadsFinished += 1 }
    }

    func responseArrived() {
        responses.add(1, ordering: .relaxed)
    }

    var isClosing: Bool {
        progress.withLock { $0.isClosing }
    }

    /// Closes the connections that are still greeting or authenticating when the handshake time is up.
    func closeUnauthenticated() {
        let stuck = channels.withLock { channels in
            channels.values.filter { !$0.isAuthenticated }.map(\.channel)
        }
        for channel in stuck { channel.close(promise: nil) }
    }

    /// Ends the run: every connection stops reading and its task returns.
    func closeAll() {
        progress.withLock { $0.isClosing = true }
        let all = channels.withLock { $0.values.map(\.channel) }
        for channel in all { channel.close(promise: nil) }
    }
}
