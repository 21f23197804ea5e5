import LaurelClient
import LaurelProtocol

/// One client connection of the run: it connects, authenticates as its user (the client library's
/// ``LaurelConnection`` reads the greeting, tags the requests and matches their answers), waits for the common
/// start, sends LOG requests paced by the plan, and keeps reading pushes until the run closes it.
struct LoadConnection: Sendable {
    let index: Int
    let user: LoadUser
    let plan: LoadPlan
    let coordinator: LoadCoordinator

    /// Long enough for any response the load provokes; longer lines are counted as `line_too_long`.
    static let maxLineBytes = 1 << 20

    func run() async -> ConnectionTally {
        var tally = ConnectionTally(index: index, userIndex: user.index)
        let connection: LaurelConnection
        do {
            connection = try await LaurelConnection.open(host: plan.host, port: plan.port(ofConnection: index), maxLineBytes: Self.maxLineBytes)
        } catch {
            tally.fail(.connect, "\(error)")
            coordinator.handshakeConcluded(connection: index, authenticated: false)
            return tally
        }
        defer { connection.close() }
        coordinator.register(connection.channel, connection: index)
        let authenticated = await authenticate(connection, &tally)
        // Before the handshake counts as concluded: the last connection's concluding starts the load, which the
        // histogram's making (a millisecond or so of CPU) must not overlap.
        if authenticated, plan.pace != .idle {
            let openLoop = if case .openLoop = plan.pace { true } else { false }
            tally.prepareForLoad(sendLag: openLoop)
        }
        coordinator.handshakeConcluded(connection: index, authenticated: authenticated)
        guard authenticated else { return tally }
        let start = await coordinator.startSignal.wait()
        if let slice = plan.latencyTimelineSlice { tally.timeline = (start.window.measureStart, slice) }
        switch plan.pace {
        case .closedLoop(let pipeline):
            await runClosedLoop(pipeline: pipeline, start: start, connection, &tally)
        case .openLoop(let logsPerSecond):
            await runOpenLoop(logsPerSecond: logsPerSecond, start: start, connection, &tally)
        case .idle:
            await stayIdle(connection, &tally)
        case .soak:
            // Soak devices are `SoakConnection`s.
            break
        }
        return tally
    }

    /// AUTH as the connection's user, after the greeting.
    private func authenticate(_ connection: LaurelConnection, _ tally: inout ConnectionTally) async -> Bool {
        do {
            let answer = try await connection.authenticate(token: user.token)
            if answer.isOK {
                tally.isAuthenticated = true
                return true
            }
            tally.errors[answer.loadErrorCode, default: 0] += 1
            tally.fail(.auth, answer.loadErrorCode)
        } catch LaurelConnectionError.notGreeted(let raw) {
            // A full server sends `* BYE {"reason":"too_many_connections"}` instead of the greeting.
            let greeting = ServerLine(raw)
            if greeting.isUntagged { tally.recordUntagged(greeting, at: .now) }
            tally.fail(.handshake, "expected * HELLO, got: \(raw.prefix(200))")
        } catch {
            // Closed before the greeting or before AUTH's answer: a BYE may say why.
            for await arrival in connection.arrivals { record(arrival, &tally) }
            let when = (try? await connection.greeting()) == nil ? "before the greeting" : "before AUTH was answered"
            tally.fail(.handshake, tally.byeReason.map { "closed with BYE \($0) \(when)" } ?? "closed \(when)")
        }
        return false
    }

    /// Keeps what a line that answers no LOG says: a push, a BYE, an error, a line too long.
    func record(_ arrival: LaurelConnection.Arrival, _ tally: inout ConnectionTally) {
        switch arrival {
        case .line(let line) where line.isUntagged: tally.recordUntagged(line, at: .now)
        case .lineTooLong: tally.recordLineTooLong()
        case .line, .answer: tally.errors["unmatched_response", default: 0] += 1
        }
    }

    var requests: LoadRequest {
        if let line = plan.requestLine { return LoadRequest(line: line) }
        return LoadRequest(log: LogArgument(activity: plan.activity, runID: plan.runID, connection: index, backfillDays: plan.backfillDays))
    }
}
