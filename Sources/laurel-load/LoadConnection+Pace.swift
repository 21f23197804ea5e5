import LaurelClient
import NIOCore

/// The three paces of a ``LoadConnection`` once the load starts: each reads its connection's arrivals, the answers
/// to its LOGs by their tags and the rest (pushes, BYE, errors) into the tally; the closed and the open loop do so
/// on the connection's event loop (``ClosedLoopReceiver``, ``OpenLoopReceiver``), an idle connection in a loop of
/// the connection's task.
extension LoadConnection {
    func runClosedLoop(pipeline: Int, start: LoadStart, _ connection: LaurelConnection, _ tally: inout ConnectionTally) async {
        let driver = ClosedLoopDriver(pipeline: pipeline, window: start.window, budget: coordinator.budget, requests: requests)
        let receiver = ClosedLoopReceiver(load: self, connection: connection, driver: driver)
        guard await receiver.takeArrivals(of: connection) else { return endedEarly(&tally) }
        await receiver.run(from: &tally, after: connection)
    }

    func runOpenLoop(logsPerSecond: Double, start: LoadStart, _ connection: LaurelConnection, _ tally: inout ConnectionTally) async {
        let schedule = OpenLoopSchedule(window: start.window, logsPerSecond: logsPerSecond, liveConnections: start.liveConnections,
                                        connection: index, connections: plan.connections)
        let ledger = OpenLoopLedger()
        let sender = OpenLoopSender(schedule: schedule, window: start.window, budget: coordinator.budget, requests: requests, ledger: ledger)
        let receiver = OpenLoopReceiver(load: self, connection: connection, schedule: schedule, ledger: ledger)
        // The receiver has the arrivals before the first request leaves: every answer finds its request in the ledger.
        guard await receiver.takeArrivals(of: connection) else { return endedEarly(&tally) }
        let coordinator = self.coordinator
        let sending = Task {
            await sender.run(on: connection, pacer: coordinator.pacers.pacer(for: connection.channel.eventLoop))
            if ledger.senderFinished() { coordinator.loadFinished() }
        }
        await receiver.run(from: &tally, after: connection)
        await sending.value
    }

    /// The connection's event loop is gone, and with it the connection, before its receiver took over.
    private func endedEarly(_ tally: inout ConnectionTally) {
        noteEarlyClose(&tally)
        coordinator.loadFinished()
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
