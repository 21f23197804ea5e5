import LaurelClient
import LaurelCore
import NIOCore
import Synchronization

/// When each request of one connection is meant to leave in the open loop: slot `n` at `first + n × interval`,
/// where the interval gives the connection its share of the total rate and `first` staggers the connections
/// across one interval so they do not all send at the same instant.
struct OpenLoopSchedule: Sendable {
    let firstSlot: ContinuousClock.Instant
    let intervalNanoseconds: Double

    init(window: MeasurementWindow, logsPerSecond: Double, liveConnections: Int, connection index: Int, connections: Int) {
        intervalNanoseconds = 1e9 * Double(max(liveConnections, 1)) / logsPerSecond
        let phase = intervalNanoseconds * Double(index) / Double(max(connections, 1))
        firstSlot = window.loadStart + .nanoseconds(Int64(phase))
    }

    func time(ofSlot slot: Int) -> ContinuousClock.Instant {
        firstSlot + .nanoseconds(Int64(Double(slot) * intervalNanoseconds))
    }
}

/// Counts one open-loop connection's requests sent and answered, shared by its sender and its reader, so
/// that whichever of them sees the last answer to the last request reports the connection's load finished,
/// exactly once. It also knows the slot of each request in flight by its tag.
final class OpenLoopLedger: Sendable {
    /// A request in flight: its slot of the schedule, whether it is measured, and how late after its slot it left
    /// (the client's own lag, which its latency includes).
    struct Request {
        let slot: Int
        let measured: Bool
        let sendLagMicroseconds: UInt64
    }

    private struct State {
        var sent = 0
        var answered = 0
        var measuredSent = 0
        var measuredAnswered = 0
        var senderDone = false
        var finishReported = false
        var inFlight: [Int: Request] = [:]

        mutating func reportIfFinished() -> Bool {
            guard senderDone, answered >= sent, !finishReported else { return false }
            finishReported = true
            return true
        }
    }

    private let state = Mutex(State())

    /// The sender sent `request` with the tag `tag`.
    func sent(_ request: Request, tag: Int) {
        state.withLock { state in
            state.sent += 1
            if request.measured { state.measuredSent += 1 }
            state.inFlight[tag] = request
        }
    }

    /// The request the answer tagged `tag` answers, and whether this answer completes the connection's load; nil
    /// for a tag of no request in flight.
    func answered(tag: Int) -> (request: Request, finished: Bool)? {
        state.withLock { state in
            guard let request = state.inFlight.removeValue(forKey: tag) else { return nil }
            state.answered += 1
            if request.measured { state.measuredAnswered += 1 }
            return (request, state.reportIfFinished())
        }
    }

    /// Returns true when everything sent was already answered, which completes the connection's load.
    func senderFinished() -> Bool {
        state.withLock { state in
            state.senderDone = true
            return state.reportIfFinished()
        }
    }

    /// After the connection closed: measured requests sent and never answered, and whether the load still has
    /// to be reported finished.
    func closeOut() -> (measuredSent: Int, measuredUnanswered: Int, reportFinished: Bool) {
        state.withLock { state in
            let report = !state.finishReported
            state.finishReported = true
            return (state.measuredSent, state.measuredSent - state.measuredAnswered, report)
        }
    }
}

/// Sends one connection's requests on its open-loop schedule, however late the answers are. A request that
/// leaves late keeps its intended time, which is what its latency is measured from: this is the correction for
/// coordinated omission.
///
/// The sending runs on the connection's event loop, woken by the loop's ``OpenLoopPacer``: an event loop's timers
/// fire at their deadline and cost no task, whereas a thousand sleeping tasks wake through the global executor's
/// timer thread, with a leeway of a tenth of the sleep, and a client that lags behind its own schedule charges its
/// lag to the server it measures.
struct OpenLoopSender: Sendable {
    let schedule: OpenLoopSchedule
    let window: MeasurementWindow
    let budget: RequestBudget?
    let requests: LoadRequest
    let ledger: OpenLoopLedger

    /// Returns when the schedule is over or the connection has closed.
    func run(on connection: LaurelConnection, pacer: OpenLoopPacer) async {
        let finished = pacer.eventLoop.makePromise(of: Void.self)
        let sending = OpenLoopSending(sender: self, connection: connection, finished: finished)
        pacer.eventLoop.execute { pacer.add(sending) }
        try? await finished.futureResult.get()
    }
}

/// One connection's place in its open-loop schedule, which its event loop's pacer sends from. Only touched on
/// that event loop.
final class OpenLoopSending: PacedSending, @unchecked Sendable {
    private let sender: OpenLoopSender
    private let connection: LaurelConnection
    private let finished: EventLoopPromise<Void>
    private var slot = 0

    init(sender: OpenLoopSender, connection: LaurelConnection, finished: EventLoopPromise<Void>) {
        self.sender = sender
        self.connection = connection
        self.finished = finished
    }

    /// Sends every request whose time has come; each is in the ledger before its answer can be read (the answer is
    /// read on this event loop too).
    func sendDue() -> ContinuousClock.Instant? {
        while true {
            let intended = sender.schedule.time(ofSlot: slot)
            guard connection.channel.isActive, !sender.window.isOver(at: intended) else {
                finished.succeed()
                return nil
            }
            let now = ContinuousClock.now
            if intended > now { return intended }
            let measured = sender.window.isMeasured(intended)
            if measured, let budget = sender.budget {
                switch budget.claim() {
                case .granted: break
                case .later:
                    slot += 1
                    continue
                case .exhausted:
                    finished.succeed()
                    return nil
                }
            }
            let sequence = slot
            let requests = sender.requests
            let tag = connection.send(requests.verb) { requests.write(sequence: sequence, into: &$0) }
            sender.ledger.sent(
                OpenLoopLedger.Request(slot: slot, measured: measured, sendLagMicroseconds: (now - intended).wholeMicroseconds), tag: tag)
            slot += 1
        }
    }
}
