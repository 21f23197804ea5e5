import LaurelClient
import NIOCore

/// Runs one connection's closed loop on the connection's event loop: each answer is recorded and the next request
/// written in the same turn that read it. Through ``LaurelConnection/arrivals`` each answer would wake the
/// connection's task, and its write would wake the event loop again; those two hand-overs cost the client a
/// quarter of its CPU a LOG, on the cores the server it measures runs on. pgbench, which the closed loop is compared
/// with, answers in the loop that reads too.
///
/// Everything mutable is touched only on the event loop, which is why the class may be sent.
final class ClosedLoopReceiver: ArrivalReceiver, @unchecked Sendable {
    private let load: LoadConnection
    private let connection: LaurelConnection
    private let eventLoop: any EventLoop
    private var driver: ClosedLoopDriver
    /// Nil until the connection's task hands over what it recorded before the hand-over.
    private var tally: ConnectionTally?
    /// Lines that arrived before the tally did.
    private var early: [LaurelConnection.Arrival] = []
    private var ended = false
    private var finished = false
    private let concluded: EventLoopPromise<ConnectionTally>

    init(load: LoadConnection, connection: LaurelConnection, driver: ClosedLoopDriver) {
        self.load = load
        self.connection = connection
        self.driver = driver
        eventLoop = connection.channel.eventLoop
        concluded = eventLoop.makePromise()
    }

    /// Takes over `tally` and the loop, and returns the tally once the connection has ended.
    func run(from tally: ConnectionTally) async -> ConnectionTally {
        eventLoop.execute { self.start(tally) }
        // The promise is only ever succeeded.
        return (try? await concluded.futureResult.get()) ?? tally
    }

    func received(_ arrival: LaurelConnection.Arrival) {
        eventLoop.assertInEventLoop()
        guard tally != nil else {
            early.append(arrival)
            return
        }
        take(arrival)
    }

    func connectionEnded() {
        eventLoop.assertInEventLoop()
        ended = true
        if tally != nil { conclude() }
    }

    private func start(_ handedOver: ConnectionTally) {
        tally = handedOver
        for arrival in early { take(arrival) }
        early = []
        if ended {
            conclude()
            return
        }
        fill()
    }

    private func take(_ arrival: LaurelConnection.Arrival) {
        guard case .answer(let tag, let line) = arrival else {
            load.record(arrival, &tally!)
            return
        }
        guard let request = driver.take(tag: tag) else {
            tally!.errors["unmatched_response", default: 0] += 1
            return
        }
        let acknowledged = tally!.recordResponse(line, sentAt: request.sentAt, measured: request.measured, at: .now)
        if request.claimed { load.coordinator.budget?.settle(acknowledged: acknowledged) }
        load.coordinator.responseArrived()
        fill()
    }

    private func fill() {
        guard !finished, !ended else { return }
        driver.fill(connection)
        if driver.isIdle {
            finished = true
            load.coordinator.loadFinished()
        }
    }

    /// The connection closed or broke; what was still in flight is counted here.
    private func conclude() {
        for request in driver.inFlightRequests {
            if request.measured { tally!.unanswered += 1 }
            if request.claimed { load.coordinator.budget?.settle(acknowledged: false) }
        }
        tally!.sent = driver.measuredSent
        load.noteEarlyClose(&tally!)
        if !finished {
            finished = true
            load.coordinator.loadFinished()
        }
        concluded.succeed(tally!)
    }
}
