import LaurelClient

/// The three paces of a ``LoadConnection`` once the load starts: each reads its connection's arrivals in one loop,
/// the answers to its LOGs by their tags and the rest (pushes, BYE, errors) into the tally.
extension LoadConnection {
    func runClosedLoop(pipeline: Int, start: LoadStart, _ connection: LaurelConnection, _ tally: inout ConnectionTally) async {
        var driver = ClosedLoopDriver(pipeline: pipeline, window: start.window, budget: coordinator.budget, requests: requests)
        var finished = false
        driver.fill(connection)
        if driver.isIdle {
            finished = true
            coordinator.loadFinished()
        }
        for await arrival in connection.arrivals {
            guard case .answer(let tag, let line) = arrival else {
                record(arrival, &tally)
                continue
            }
            guard let request = driver.take(tag: tag) else {
                tally.errors["unmatched_response", default: 0] += 1
                continue
            }
            let acknowledged = tally.recordResponse(line, sentAt: request.sentAt, measured: request.measured, at: .now)
            if request.claimed { coordinator.budget?.settle(acknowledged: acknowledged) }
            coordinator.responseArrived()
            if !finished {
                driver.fill(connection)
                if driver.isIdle {
                    finished = true
                    coordinator.loadFinished()
                }
            }
        }
        // The connection closed or broke; what was still in flight is counted here.
        for request in driver.inFlight.values {
            if request.measured { tally.unanswered += 1 }
            if request.claimed { coordinator.budget?.settle(acknowledged: false) }
        }
        tally.sent = driver.measuredSent
        noteEarlyClose(&tally)
        if !finished { coordinator.loadFinished() }
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
    private func noteEarlyClose(_ tally: inout ConnectionTally) {
        guard !coordinator.isClosing else { return }
        tally.fail(.closedDuringLoad, tally.byeReason.map { "BYE \($0)" } ?? "closed by the server")
    }
}
