import LaurelCore
import LaurelJSON
import LaurelProtocol
import NIOCore
import NIOPosix

/// One device of a soak run (`--soak`): it sends the mixed requests of ``SoakRequestLine`` on an open-loop
/// schedule, one at a time, and stays a device for the whole run. Every `reconnectEvery` it closes its connection
/// and comes back; when the server closes it (an instance restarting) it comes back with a growing, jittered
/// delay. Each time it authenticates with `resume_after` the last push `seq` it saw, and sends a request that was
/// not answered again, so a LOG is stored once and every push arrives once however often it reconnects.
struct SoakConnection: Sendable {
    let index: Int
    let user: LoadUser
    let plan: LoadPlan
    let coordinator: LoadCoordinator
    let reconnectEvery: Duration

    /// How one connection of the device ended.
    private enum Ending {
        case runOver
        case plannedReconnect
        case dropped
    }

    func run() async -> ConnectionTally {
        var tally = ConnectionTally(index: index, userIndex: user.index)
        var device = DeviceState()
        var start: LoadStart?
        var delay = Duration.milliseconds(100)
        while !coordinator.isClosing {
            let ending = await connectOnce(&device, &tally, start: &start)
            if start == nil {
                // The first handshake failed: the device takes no part in the run.
                coordinator.handshakeConcluded(connection: index, authenticated: false)
                return tally
            }
            switch ending {
            case .runOver:
                coordinator.loadFinished()
                return tally
            case .plannedReconnect:
                tally.reconnects += 1
                delay = .milliseconds(100)
            case .dropped:
                if coordinator.isClosing { break }
                tally.reconnects += 1
                try? await Task.sleep(for: delay + .milliseconds(Int64.random(in: 0...Int64(delay.inSeconds * 1000))))
                delay = min(delay * 2, .seconds(5))
            }
        }
        return tally
    }

    /// What a device keeps across its connections.
    private struct DeviceState {
        var lastSeq = 0
        var nextSequence = 0
        var schedule: OpenLoopSchedule?
    }

    /// One connection: connect, authenticate (resuming after the first), then requests until the run is over, the
    /// planned reconnect is due, or the connection ends.
    private func connectOnce(_ device: inout DeviceState, _ tally: inout ConnectionTally, start: inout LoadStart?) async -> Ending {
        guard let channel = try? await LoadConnection.connect(plan: plan, index: index) else { return .dropped }
        coordinator.register(channel.channel, connection: index)
        do {
            return try await channel.executeThenClose { inbound, outbound in
                var lines = inbound.makeAsyncIterator()
                guard case .line(let greeting)? = try await lines.next(), ServerLine(greeting).kind == "HELLO" else { return .dropped }
                try await outbound.write(SoakRequestLine.authentication(token: user.token, resumeAfter: device.lastSeq))
                guard let answer = try await nextResponse(&lines, &device, &tally), answer.isOK else { return .dropped }
                if start == nil {
                    coordinator.handshakeConcluded(connection: index, authenticated: true)
                    tally.isAuthenticated = true
                    tally.prepareForLoad()
                    let started = await coordinator.startSignal.wait()
                    start = started
                    if let slice = plan.latencyTimelineSlice { tally.timeline = (started.window.measureStart, slice) }
                    device.schedule = OpenLoopSchedule(
                        window: started.window, logsPerSecond: plan.rate ?? 1, liveConnections: started.liveConnections,
                        connection: index, connections: plan.connections)
                }
                guard let window = start?.window, let schedule = device.schedule else { return .dropped }
                let requests = SoakRequestLine(activity: plan.activity, runID: plan.runID, connection: index)
                let reconnectAt = ContinuousClock.now + reconnectEvery.jittered(by: 0.2)
                while true {
                    let intended = schedule.time(ofSlot: device.nextSequence)
                    if window.isOver(at: intended) || coordinator.isClosing { return .runOver }
                    if intended >= reconnectAt { return .plannedReconnect }
                    if intended > .now { try await Task.sleep(until: intended, clock: .continuous) }
                    let measured = window.isMeasured(intended)
                    try await outbound.write(requests.buffer(sequence: device.nextSequence))
                    if measured { tally.sent += 1 }
                    guard let response = try await nextResponse(&lines, &device, &tally) else {
                        // Not answered: sent again, with the same id, on the next connection.
                        if measured { tally.sent -= 1 }
                        return .dropped
                    }
                    tally.recordResponse(response, sentAt: intended, measured: measured, at: .now)
                    coordinator.responseArrived()
                    device.nextSequence += 1
                }
            }
        } catch {
            return .dropped
        }
    }

    /// The next tagged line, recording pushes (and the highest `seq` seen) on the way; nil when the connection ends.
    private func nextResponse(
        _ lines: inout NIOAsyncChannelInboundStream<InboundFrame>.AsyncIterator, _ device: inout DeviceState, _ tally: inout ConnectionTally
    ) async throws -> ServerLine? {
        while let frame = try await lines.next() {
            guard case .line(let buffer) = frame else {
                tally.recordLineTooLong()
                continue
            }
            let line = ServerLine(buffer)
            guard line.isUntagged else { return line }
            if let seq = line.value?["seq"]?.intValue {
                // A push at or below the last seq seen would be a repeat: the check of exactly-once counts it.
                if seq <= device.lastSeq { tally.repeatedPushes += 1 }
                device.lastSeq = max(device.lastSeq, seq)
            }
            tally.recordUntagged(line, at: .now)
        }
        return nil
    }
}

extension Duration {
    /// This duration changed by up to ±`fraction` at random, so devices that started together do not all
    /// reconnect together.
    func jittered(by fraction: Double) -> Duration {
        let seconds = inSeconds * (1 + Double.random(in: -fraction...fraction))
        return .nanoseconds(Int64(seconds * 1e9))
    }
}
