import LaurelClient
import NIOCore

/// The three paces of a ``LoadConnection`` once the load starts: each reads its connection's arrivals, the answers
/// to its LOGs by their tags and the rest (pushes, BYE, errors) into the tally; the closed loop does so on the
/// connection's event loop (``ClosedLoopReceiver``), the others in one loop of the connection's task.
extension LoadConnection {
    func runClosedLoop(pipeline: Int, start: LoadStart, _ connection: LaurelConnection, _ tally: inout ConnectionTally) async {
        let driver = ClosedLoopDriver(pipeline: pipeline, window: start.window, budget: coordinator.budget, requests: requests)
        let receiver = ClosedLoopReceiver(load: self, connection: connection, driver: driver)
        do {
            try await connection.receiveArrivals(with: receiver).get()
        } catch {
            // The event loop is gone, and with it the connection.
            noteEarlyClose(&tally)
            coordinator.loadFinished()
            return
        }
        // Lines that came before the hand-over, which sent nothing yet.
        for await arrival in connection.arrivals { record(arrival, &tally) }
        tally = await receiver.run(from: tally)
    }

    func runOpenLoop(logsPerSecond: Double, start: LoadStart, _ connection: LaurelConnection, _ tally: inout ConnectionTally) async {
        let window = start.window
        let schedule = OpenLoopSchedule(window: window, logsPerSecond: logsPerSecond, liveConnections: start.liveConnections,
                                        connection: index, connections: plan.connections)
        let ledger = OpenLoopLedger()
        let sender = OpenLoopSender(schedule: schedule, window: window, budget: coordinator.budget, requests: requests, ledger: ledger)
        let coordinator = self.coordinator
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await sender.run(on: connection)
                if ledger.senderFinished() { coordinator.loadFinished() }
            }
            for await arrival in connection.arrivals {
                guard case .answer(let tag, let line) = arrival else {
                    record(arrival, &tally)
                    continue
                }
                guard let (request, loadFinished) = ledger.answered(tag: tag) else {
                    tally.errors["unmatched_response", default: 0] += 1
                    continue
                }
                let acknowledged = tally.recordResponse(line, sentAt: schedule.time(ofSlot: request.slot), measured: request.measured, at: .now)
                if request.measured { coordinator.budget?.settle(acknowledged: acknowledged) }
                coordinator.responseArrived()
                if loadFinished { coordinator.loadFinished() }
            }
            // The connection closed or broke; what was still in flight is counted below.
            group.cancelAll()
        }
        let (measuredSent, unanswered, reportFinished) = ledger.closeOut()
        tally.sent = measuredSent
        tally.unanswered = unanswered
        if let budget = coordinator.budget {
            for _ in 0..<unanswered { budget.settle(acknowledged: false) }
        }
        noteEarlyClose(&tally)
        if reportFinished { coordinator.loadFinished() }
    }

    /// Sends nothing and reads (pushes, BYE) until the run closes the connection.
    func stayIdle(_ connection: LaurelConnection, _ tally: inout ConnectionTally) async {
        for await arrival in connection.arrivals { record(arrival, &tally) }
        noteEarlyClose(&tally)
    }

    /// A connection that stopped reading before the run closed it was closed by the server or broke.
    func noteEarlyClose(_ tally: inout ConnectionTally) {
        guard !coordinator.isClosing else { return }
        tally.fail(.closedDuringLoad, tally.byeReason.map { "BYE \($0)" } ?? "closed by the server")
    }
}
