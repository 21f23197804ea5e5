import CoreMetrics
import Dispatch
import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore
import Logging
import NIOCore
import Synchronization

/// One client connection's request loop: it greets, reads frames in order, answers each request before reading
/// the next (so responses keep the order of requests and at most a bounded number wait unread), and says `BYE`
/// when the server shuts down. What a request does is its verb's row in the ``VerbTable``.
struct ClientConnection {
    let id: ConnectionID
    let connection: AcceptedConnection
    let services: ServerResources
    let isShuttingDown: @Sendable () -> Bool

    private var channel: any Channel { connection.channel }

    static let hello: JSONObject = ["server": "laurel", "version": "1.0.0", "protocol": 1, "auth": ["token"]]
    static let maxFailedAuths = 3

    func run() async {
        let logger = {
            var logger = services.logger
            logger[metadataKey: "connection.id"] = "\(id)"
            return logger
        }()
        let configuration = services.configuration
        let state = ConnectionState(
            requestsPerSecond: configuration.connectionRequestsPerSecond, burst: configuration.connectionRequestBurst)
        do {
            try await connection.executeThenClose { inbound in
                let lineWriter = ConnectionLineWriter(
                    id: id, channel: channel, gate: connection.gate, framing: connection.framing, metrics: services.metrics)
                defer {
                    if let user = state.context?.user.id, let ended = services.registry.detach(id, from: user),
                       let snapshot = ended.progress.any?.snapshot {
                        // The running state is not written with every write: keep it now, so that the user's next
                        // session adds the facts stored after it instead of reading every fact.
                        ended.storeSnapshot(snapshot, in: services.store)
                    }
                }
                lineWriter.write(OutboundLine.push(kind: "HELLO", Self.hello))
                for try await frame in inbound {
                    // A request whose connection has gone is not executed: no one would read its answer, and a
                    // client that pipelined many and left must not keep the server busy (its LOGs were not
                    // acknowledged, so a retry after reconnecting is the client's to make).
                    guard connection.gate.isActive else {
                        services.metrics.requestsDropped.increment()
                        continue
                    }
                    let next: Next
                    if state.context == nil {
                        // A task keeps the memory its deepest chain of calls needed until it ends. AUTH's chain is
                        // the deepest a connection runs (token, session load, catch-up), and most connections
                        // then sit idle; answering it in a task of its own gives that memory back when it is done.
                        // (Not an `async let`: its child task is laid out in this task's memory, which kept about
                        // 1.3 KB more for every idle connection, measured with heaptrack.)
                        let isAuth = ConnectionLifecycleHandler.isAuth(frame)
                        if isAuth { channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.AuthStarted()) }
                        let place = await services.authentications.enter(from: connection.source.current.flatMap(ConnectionSource.guessingKey))
                        // A client that left while it waited for a place has its request dropped like any other.
                        guard connection.gate.isActive else {
                            services.authentications.leave(place)
                            services.metrics.requestsDropped.increment()
                            continue
                        }
                        let authentication = Task { await answer(frame, state: state, lineWriter: lineWriter, logger: logger) }
                        next = await withTaskCancellationHandler { await authentication.value } onCancel: { authentication.cancel() }
                        services.authentications.leave(place)
                        if isAuth { channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.AuthAnswered()) }
                    } else {
                        next = await answer(frame, state: state, lineWriter: lineWriter, logger: logger)
                    }
                    if case .close(let reason) = next {
                        lineWriter.close(reason: reason)
                        return
                    }
                }
                if let reason = connection.expiry.reason {
                    lineWriter.close(reason: reason)
                } else if isShuttingDown() {
                    lineWriter.close(reason: "shutdown")
                }
            }
        } catch {
            logger.debug("connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// What the loop does after answering a frame.
    enum Next {
        case proceed
        case close(reason: String)
    }

    /// Answers one frame: exactly one line under its tag, then the pushes the request stored, then its follow-up.
    private func answer(_ frame: InboundFrame, state: ConnectionState, lineWriter: ConnectionLineWriter, logger: Logger) async -> Next {
        let bytes: ByteBuffer
        switch frame {
        case .lineTooLong:
            lineWriter.write(OutboundLine.err(tag: "*", .lineTooLong(limit: services.configuration.maxLineBytes)))
            return .proceed
        case .lineBreakInMessage:
            lineWriter.write(OutboundLine.err(tag: "*", .badRequest("a WebSocket message carries one line, without a line feed")))
            return .proceed
        case .line(let line):
            bytes = line
        }
        let line: RequestLine
        do throws(TaggedProtocolError) {
            line = try VerbTable.parser.requestLine(bytes)
        } catch {
            lineWriter.write(OutboundLine.err(tag: error.tag, error.error))
            return .proceed
        }
        guard let route = VerbTable.route(for: line.verb) else { return .proceed }
        // The latency of a verb: from reading the request to handing its answer to the connection. In nanoseconds of
        // the monotonic clock, as the allowance below: worked out through `Duration`, the two took three of its
        // conversions (`components`), some 570 instructions a request.
        let started = DispatchTime.now().uptimeNanoseconds
        let metrics = services.metrics
        func answered() { metrics.countRequest(route, tookNanoseconds: DispatchTime.now().uptimeNanoseconds &- started) }
        if let wait = state.spendRequest(atUptimeNanoseconds: started) {
            let refusal = ProtocolError.rateLimited(retryAfterMs: wait, message: "too many requests on this connection")
            metrics.countError(code: refusal.code)
            lineWriter.write(OutboundLine.err(tag: line.tag, refusal))
            answered()
            return .proceed
        }
        let call = ConnectionCall(
            tag: line.tag, connection: id, state: state, lineWriter: lineWriter, channel: channel, source: connection.source,
            services: services)
        let outcome: RequestOutcome
        do {
            outcome = try await route.perform(line, call)
        } catch {
            let protocolError = Self.protocolError(for: error, logger: logger)
            services.metrics.countError(code: protocolError.code)
            lineWriter.write(OutboundLine.err(tag: line.tag, protocolError))
            answered()
            if case StoreError.unknownUser = error { return .close(reason: "account_deleted") }
            if protocolError.code == .authFailed, state.failedAuths >= Self.maxFailedAuths { return .close(reason: "auth_failed") }
            return .proceed
        }
        let answer = OutboundLine.ok(tag: line.tag, json: outcome.json)
        if let user = state.context?.user.id, !outcome.pushes.isEmpty {
            services.metrics.unlocks.increment(by: outcome.pushes.filter { $0.kind == .unlock }.count)
            // The answer and the pushes that follow it leave this connection together, before the user's others.
            await lineWriter.deliver(outcome.pushes, after: consume answer)
            answered()
            services.metrics.pushesDelivered.increment(by: outcome.pushes.count)
            await services.registry.deliver(outcome.pushes, to: user, except: lineWriter)
        } else {
            // Handed over, not copied: the line gains its LF in place only while it has one owner.
            lineWriter.write(consume answer)
            answered()
        }
        await outcome.followUp?()
        if let reason = outcome.closeReason { return .close(reason: reason) }
        return .proceed
    }

    static func protocolError(for error: any Error, logger: Logger) -> ProtocolError {
        switch error {
        case let error as ProtocolError:
            return error
        case StoreError.unavailable(let reason):
            logger.warning("database unavailable", metadata: ["error": "\(reason)"])
            return .unavailable()
        case StoreError.unknownUser:
            return .authFailed()
        default:
            logger.error("request failed", metadata: ["error": "\(error)"])
            return .internal()
        }
    }
}
