import LaurelClient
import NIOCore

/// Reads one open-loop connection's arrivals on the connection's event loop, where ``OpenLoopSender`` sends: each
/// answer is matched to its request through the ledger and recorded as it is read, and pushes, BYEs and errors go
/// into the tally. Through ``LaurelConnection/arrivals`` every line would wake the connection's task, a hand-over
/// the closed loop did away with first (``ClosedLoopReceiver``), on the cores of the server it measures.
final class OpenLoopReceiver: EventLoopReceiver, @unchecked Sendable {
    private let schedule: OpenLoopSchedule
    private let ledger: OpenLoopLedger

    init(load: LoadConnection, connection: LaurelConnection, schedule: OpenLoopSchedule, ledger: OpenLoopLedger) {
        self.schedule = schedule
        self.ledger = ledger
        super.init(load: load, connection: connection)
    }

    override func take(_ arrival: LaurelConnection.Arrival) {
        guard case .answer(let tag, let line) = arrival else {
            load.record(arrival, &tally!)
            return
        }
        guard let (request, loadFinished) = ledger.answered(tag: tag) else {
            tally!.errors["unmatched_response", default: 0] += 1
            return
        }
        let coordinator = load.coordinator
        let sentAt = schedule.time(ofSlot: request.slot)
        if request.measured { tally!.recordSendLag(request.sendLagMicroseconds, sentAt: sentAt) }
        let acknowledged = tally!.recordResponse(line, sentAt: sentAt, measured: request.measured, at: .now)
        if request.measured { coordinator.budget?.settle(acknowledged: acknowledged) }
        coordinator.responseArrived()
        if loadFinished { coordinator.loadFinished() }
    }

    /// The connection closed or broke; what was sent and never answered is counted here.
    override func conclude() {
        let (measuredSent, unanswered, reportFinished) = ledger.closeOut()
        tally!.sent = measuredSent
        tally!.unanswered = unanswered
        if let budget = load.coordinator.budget {
            for _ in 0..<unanswered { budget.settle(acknowledged: false) }
        }
        load.noteEarlyClose(&tally!)
        if reportFinished { load.coordinator.loadFinished() }
        finish()
    }
}
