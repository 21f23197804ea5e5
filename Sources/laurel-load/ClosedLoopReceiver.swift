import LaurelClient
import NIOCore

/// Runs one connection's closed loop on the connection's event loop: each answer is recorded and the next request
/// written in the same turn that read it. Through ``LaurelConnection/arrivals`` each answer would wake the
/// connection's task, and its write would wake the event loop again; those two hand-overs cost the client a
/// quarter of its CPU a LOG, on the cores the server it measures runs on. pgbench, which the closed loop is compared
/// with, answers in the loop that reads too.
final class ClosedLoopReceiver: EventLoopReceiver, @unchecked Sendable {
    private let connection: LaurelConnection
    private var driver: ClosedLoopDriver
    private var finished = false

    init(load: LoadConnection, connection: LaurelConnection, driver: ClosedLoopDriver) {
        self.connection = connection
        self.driver = driver
        super.init(load: load, connection: connection)
    }

    override func started() {
        fill()
    }

    override func take(_ arrival: LaurelConnection.Arrival) {
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
    override func conclude() {
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
        finish()
    }
}
