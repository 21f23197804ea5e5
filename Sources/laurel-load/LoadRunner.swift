/// Drives one run from the client side: opens every connection, starts the load on all of them at once when
/// the handshakes are done, waits until the load is over (or stalls), lets late pushes arrive, then closes
/// every connection and collects what each observed.
struct LoadRunner: Sendable {
    /// What the run observed, for the report.
    struct Outcome: Sendable {
        let tallies: [ConnectionTally]
        /// Nil when no connection authenticated and the load never started.
        let window: MeasurementWindow?
    }

    let plan: LoadPlan
    let users: [LoadUser]
    let status: @Sendable (String) -> Void

    private static let pollInterval = Duration.milliseconds(20)

    func run() async -> Outcome {
        let coordinator = LoadCoordinator(budget: {
            if case .afterAcknowledged(let count) = plan.stop { return RequestBudget(count: count) }
            return nil
        }())
        return await withTaskGroup(of: ConnectionTally.self) { group in
            for index in 0..<plan.connections {
                let user = users[index % users.count]
                if case .soak(_, let reconnectEvery) = plan.pace {
                    let device = SoakConnection(index: index, user: user, plan: plan, coordinator: coordinator, reconnectEvery: reconnectEvery)
                    group.addTask { await device.run() }
                } else {
                    let connection = LoadConnection(index: index, user: user, plan: plan, coordinator: coordinator)
                    group.addTask { await connection.run() }
                }
            }
            let authenticated = await awaitHandshakes(coordinator)
            var window: MeasurementWindow?
            if authenticated > 0 {
                let started = makeWindow(startingAt: .now + Self.startLead(pace: plan.pace, connections: authenticated))
                window = started
                status("\(authenticated) of \(plan.connections) connections authenticated; running \(describeLoad())")
                coordinator.startSignal.fire(LoadStart(window: started, liveConnections: authenticated))
                if case .idle = plan.pace, let end = started.loadEnd {
                    try? await Task.sleep(until: end, clock: .continuous)
                } else {
                    await awaitLoad(coordinator, window: started)
                    try? await Task.sleep(for: plan.pushGrace)
                }
            } else {
                status("no connection authenticated")
            }
            coordinator.closeAll()
            var tallies: [ConnectionTally] = []
            for await tally in group { tallies.append(tally) }
            return Outcome(tallies: tallies.sorted { $0.index < $1.index }, window: window)
        }
    }

    /// How far ahead of the start signal an open loop's schedule begins. Each connection sets its sender up when it
    /// hears the signal (its task woken, a hop to its event loop, a task of its own for the sender), some tens of
    /// microseconds each on the cores the server needs too; a schedule that began at the signal found the last of
    /// 2,000 connections tens of milliseconds behind their first slots, a lag of the client's own that its
    /// latencies charged to the server (the first 100 ms of an open loop had a send lag of up to 30-47 ms, the rest
    /// 2-12). A closed loop sends when each connection is ready and measures from the send, so it needs none.
    static func startLead(pace: LoadPlan.Pace, connections: Int) -> Duration {
        guard case .openLoop = pace else { return .zero }
        return .milliseconds(50) + .microseconds(50 * Int64(max(connections, 0)))
    }

    private func makeWindow(startingAt start: ContinuousClock.Instant) -> MeasurementWindow {
        let measureStart = start + plan.warmup
        var loadEnd: ContinuousClock.Instant?
        if case .afterDuration(let duration) = plan.stop { loadEnd = measureStart + duration }
        return MeasurementWindow(loadStart: start, measureStart: measureStart, loadEnd: loadEnd)
    }

    /// Waits until every connection authenticated or gave up; returns how many authenticated.
    private func awaitHandshakes(_ coordinator: LoadCoordinator) async -> Int {
        let deadline = ContinuousClock.now + plan.handshakeTimeout
        var closedStragglers = false
        while true {
            let progress = coordinator.snapshot
            if progress.handshakesConcluded >= plan.connections { return progress.authenticated }
            if !closedStragglers, ContinuousClock.now >= deadline {
                status("\(plan.connections - progress.handshakesConcluded) connections still not authenticated after \(plan.handshakeTimeout); closing them")
                coordinator.closeUnauthenticated()
                closedStragglers = true
            }
            try? await Task.sleep(for: Self.pollInterval)
        }
    }

    /// Waits until every live connection finished its load, giving up when answers stop coming: in a
    /// duration run `drainTimeout` after the end, in any run when nothing was answered for a while.
    private func awaitLoad(_ coordinator: LoadCoordinator, window: MeasurementWindow) async {
        let stallTimeout = max(plan.drainTimeout, expectedGapBetweenAnswers * 5)
        var lastCount = coordinator.responseCount
        var lastProgress = ContinuousClock.now
        while true {
            let progress = coordinator.snapshot
            if progress.loadsFinished >= progress.authenticated { return }
            try? await Task.sleep(for: Self.pollInterval)
            let now = ContinuousClock.now
            let count = coordinator.responseCount
            if count != lastCount {
                lastCount = count
                lastProgress = now
            }
            if let end = window.loadEnd, now >= end + plan.drainTimeout {
                status("requests still unanswered \(plan.drainTimeout) after the end; closing")
                return
            }
            if now - lastProgress >= stallTimeout, window.loadEnd.map({ now >= $0 }) ?? true {
                status("no answers for \(stallTimeout); closing")
                return
            }
        }
    }

    /// The time between two answers an open-loop run expects when all is well.
    private var expectedGapBetweenAnswers: Duration {
        guard let rate = plan.rate, rate > 0 else { return .zero }
        return .nanoseconds(Int64(1e9 / rate))
    }

    private func describeLoad() -> String {
        let pace: String
        switch plan.pace {
        case .closedLoop(let pipeline): pace = "closed loop, pipeline \(pipeline)"
        case .openLoop(let rate): pace = "open loop at \(rate) logs/s"
        case .idle: pace = "idle, holding the connections"
        case .soak(let rate, let reconnectEvery): pace = "soak at \(rate) requests/s, reconnecting every \(reconnectEvery)"
        }
        let stop: String
        switch plan.stop {
        case .afterDuration(let duration): stop = "for \(duration)"
        case .afterAcknowledged(let count): stop = "until \(count) logs are acknowledged"
        }
        let warmup = plan.warmup > .zero ? " after a \(plan.warmup) warm-up" : ""
        return "\(pace) \(stop)\(warmup)"
    }
}
