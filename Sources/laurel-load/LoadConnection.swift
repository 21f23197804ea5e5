import LaurelClient
import LaurelProtocol
import NIOCore
import NIOPosix

/// One client connection of the run: it connects, reads the greeting, authenticates as its user, waits for
/// the common start, sends LOG requests paced by the plan, and keeps reading pushes until the run closes it.
struct LoadConnection: Sendable {
    typealias Lines = NIOAsyncChannelInboundStream<InboundFrame>.AsyncIterator
    typealias Outbound = NIOAsyncChannelOutboundWriter<ByteBuffer>

    let index: Int
    let user: LoadUser
    let plan: LoadPlan
    let coordinator: LoadCoordinator

    /// Long enough for any response the load provokes; longer lines are counted as `line_too_long`.
    static let maxLineBytes = 1 << 20

    func run() async -> ConnectionTally {
        var tally = ConnectionTally(index: index, userIndex: user.index)
        let channel: NIOAsyncChannel<InboundFrame, ByteBuffer>
        do {
            channel = try await Self.connect(plan: plan, index: index)
        } catch {
            tally.fail(.connect, "\(error)")
            coordinator.handshakeConcluded(connection: index, authenticated: false)
            return tally
        }
        coordinator.register(channel.channel, connection: index)
        var handshakeReported = false
        do {
            try await channel.executeThenClose { inbound, outbound in
                var lines = inbound.makeAsyncIterator()
                let authenticated = await authenticate(&lines, outbound, &tally)
                coordinator.handshakeConcluded(connection: index, authenticated: authenticated)
                handshakeReported = true
                guard authenticated else { return }
                if plan.pace != .idle { tally.prepareForLoad() }
                let start = await coordinator.startSignal.wait()
                if let slice = plan.latencyTimelineSlice { tally.timeline = (start.window.measureStart, slice) }
                switch plan.pace {
                case .closedLoop(let pipeline):
                    await runClosedLoop(pipeline: pipeline, start: start, &lines, outbound, &tally)
                case .openLoop(let logsPerSecond):
                    await runOpenLoop(logsPerSecond: logsPerSecond, start: start, channel.channel, &lines, &tally)
                case .idle:
                    await stayIdle(&lines, &tally)
                case .soak:
                    // Soak devices are `SoakConnection`s.
                    break
                }
            }
        } catch {
            tally.fail(.handshake, "\(error)")
        }
        if !handshakeReported {
            coordinator.handshakeConcluded(connection: index, authenticated: false)
        }
        return tally
    }

    /// Opens connection `index` of the plan's run, framed in lines.
    static func connect(plan: LoadPlan, index: Int) async throws -> NIOAsyncChannel<InboundFrame, ByteBuffer> {
        try await ServerChannel.openLines(host: plan.host, port: plan.port(ofConnection: index), maxLineBytes: Self.maxLineBytes)
    }

    /// Reads `* HELLO`, sends AUTH and waits for its answer.
    private func authenticate(_ lines: inout Lines, _ outbound: Outbound, _ tally: inout ConnectionTally) async -> Bool {
        do {
            guard case .line(let greeting)? = try await lines.next() else {
                tally.fail(.handshake, "closed before the greeting")
                return false
            }
            let hello = ServerLine(greeting)
            guard hello.isUntagged, hello.kind == "HELLO" else {
                // A full server sends `* BYE {"reason":"too_many_connections"}` instead of the greeting.
                if hello.isUntagged { tally.recordUntagged(hello, at: .now) }
                tally.fail(.handshake, "expected * HELLO, got: \(String(buffer: greeting).prefix(200))")
                return false
            }
            try await outbound.write(LogRequestLine.authentication(token: user.token))
            while let line = try await Self.nextTaggedLine(&lines, &tally) {
                guard line.tag == LogRequestLine.authenticationTag else { continue }
                if line.isOK {
                    tally.isAuthenticated = true
                    return true
                }
                let code = line.loadErrorCode
                tally.errors[code, default: 0] += 1
                tally.fail(.auth, code)
                return false
            }
            tally.fail(.handshake, tally.byeReason.map { "closed with BYE \($0) before AUTH was answered" } ?? "closed before AUTH was answered")
        } catch {
            tally.fail(.handshake, "\(error)")
        }
        return false
    }

    /// The next tagged line (a response), counting over-long lines and keeping untagged ones (pushes, BYE) in the
    /// tally on the way; nil when the connection ends.
    private static func nextTaggedLine(_ lines: inout Lines, _ tally: inout ConnectionTally) async throws -> ServerLine? {
        while let frame = try await lines.next() {
            guard case .line(let buffer) = frame else {
                tally.recordLineTooLong()
                continue
            }
            let line = ServerLine(buffer)
            if line.isUntagged {
                tally.recordUntagged(line, at: .now)
                continue
            }
            return line
        }
        return nil
    }

    private var requests: LogRequestLine {
        LogRequestLine(activity: plan.activity, runID: plan.runID, connection: index, backfillDays: plan.backfillDays)
    }

    private func runClosedLoop(pipeline: Int, start: LoadStart, _ lines: inout Lines, _ outbound: Outbound, _ tally: inout ConnectionTally) async {
        var driver = ClosedLoopDriver(pipeline: pipeline, window: start.window, budget: coordinator.budget, requests: requests)
        var finished = false
        do {
            try await driver.fill(outbound)
            if driver.isIdle {
                finished = true
                coordinator.loadFinished()
            }
            while let line = try await Self.nextTaggedLine(&lines, &tally) {
                guard let sequence = line.logSequence, let request = driver.take(sequence: sequence) else {
                    tally.errors["unmatched_response", default: 0] += 1
                    continue
                }
                let acknowledged = tally.recordResponse(line, sentAt: request.sentAt, measured: request.measured, at: .now)
                if request.claimed { coordinator.budget?.settle(acknowledged: acknowledged) }
                coordinator.responseArrived()
                if !finished {
                    try await driver.fill(outbound)
                    if driver.isIdle {
                        finished = true
                        coordinator.loadFinished()
                    }
                }
            }
        } catch {
            // The connection closed or broke; what was still in flight is counted below.
        }
        for request in driver.inFlight.values {
            if request.measured { tally.unanswered += 1 }
            if request.claimed { coordinator.budget?.settle(acknowledged: false) }
        }
        tally.sent = driver.measuredSent
        noteEarlyClose(&tally)
        if !finished { coordinator.loadFinished() }
    }

    private func runOpenLoop(logsPerSecond: Double, start: LoadStart, _ channel: any Channel, _ lines: inout Lines, _ tally: inout ConnectionTally) async {
        let window = start.window
        let schedule = OpenLoopSchedule(window: window, logsPerSecond: logsPerSecond, liveConnections: start.liveConnections,
                                        connection: index, connections: plan.connections)
        let ledger = OpenLoopLedger()
        let sender = OpenLoopSender(schedule: schedule, window: window, budget: coordinator.budget, requests: requests, ledger: ledger)
        let coordinator = self.coordinator
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await sender.run(on: channel)
                if ledger.senderFinished() { coordinator.loadFinished() }
            }
            do {
                while let line = try await Self.nextTaggedLine(&lines, &tally) {
                    guard let slot = line.logSequence else {
                        tally.errors["unmatched_response", default: 0] += 1
                        continue
                    }
                    let intended = schedule.time(ofSlot: slot)
                    let measured = window.isMeasured(intended)
                    let acknowledged = tally.recordResponse(line, sentAt: intended, measured: measured, at: .now)
                    if measured { coordinator.budget?.settle(acknowledged: acknowledged) }
                    coordinator.responseArrived()
                    if ledger.answered(measured: measured) { coordinator.loadFinished() }
                }
            } catch {
                // The connection closed or broke; what was still in flight is counted below.
            }
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
    private func stayIdle(_ lines: inout Lines, _ tally: inout ConnectionTally) async {
        do {
            while try await Self.nextTaggedLine(&lines, &tally) != nil {
                tally.errors["unmatched_response", default: 0] += 1
            }
        } catch {
            // The connection closed or broke.
        }
        noteEarlyClose(&tally)
    }

    /// A connection that stopped reading before the run closed it was closed by the server or broke.
    private func noteEarlyClose(_ tally: inout ConnectionTally) {
        guard !coordinator.isClosing else { return }
        tally.fail(.closedDuringLoad, tally.byeReason.map { "BYE \($0)" } ?? "closed by the server")
    }
}
