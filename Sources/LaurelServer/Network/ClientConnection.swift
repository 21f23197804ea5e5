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
/// when the server shuts down.
struct ClientConnection {
    let id: ConnectionID
    let channel: NIOAsyncChannel<InboundFrame, ByteBuffer>
    let services: ServerResources
    let isShuttingDown: @Sendable () -> Bool

    static let hello: JSONObject = ["server": "laurel", "version": "1.0.0", "protocol": 1, "auth": ["token"]]
    static let maxFailedAuths = 3

    func run() async {
        var logger = services.logger
        logger[metadataKey: "connection.id"] = "\(id)"
        var state = SessionState()
        do {
            try await channel.executeThenClose { inbound, outbound in
                let lineWriter = ConnectionLineWriter(id: id, outbound: outbound, channel: channel.channel)
                defer {
                    if let user = state.context?.user.id, let ended = services.registry.detach(id, from: user) {
                        // The engine state is not written with every LOG: keep it now, so that the user's next
                        // session starts from it instead of rebuilding it from the facts.
                        let store = services.store
                        Task { await ended.stateCache.checkpoint(user: user, in: store) }
                    }
                }
                await lineWriter.write(OutboundLine.push(kind: "HELLO", Self.hello))
                for try await frame in inbound {
                    let next = await answer(frame, state: &state, lineWriter: lineWriter, logger: logger)
                    if case .close(let reason) = next {
                        await lineWriter.close(reason: reason)
                        return
                    }
                }
                if isShuttingDown() { await lineWriter.close(reason: "shutdown") }
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

    private func answer(_ frame: InboundFrame, state: inout SessionState, lineWriter: ConnectionLineWriter, logger: Logger) async -> Next {
        let bytes: ByteBuffer
        switch frame {
        case .lineTooLong:
            await lineWriter.write(OutboundLine.err(tag: "*", .lineTooLong(limit: services.configuration.maxLineBytes)))
            return .proceed
        case .line(let line):
            bytes = line
        }
        let line: RequestLine
        switch RequestLineParser.parse(bytes) {
        case .success(let parsed): line = parsed
        case .failure(let failure):
            await lineWriter.write(OutboundLine.err(tag: failure.tag, failure.error))
            return .proceed
        }
        services.metrics.countRequest(verb: line.verb)
        do {
            let request = try Request.parse(line)
            return try await perform(request, tag: line.tag, state: &state, lineWriter: lineWriter)
        } catch {
            let protocolError = Self.protocolError(for: error, logger: logger)
            services.metrics.countError(code: protocolError.code.rawValue)
            await lineWriter.write(OutboundLine.err(tag: line.tag, protocolError))
            if case StoreError.unknownUser = error { return .close(reason: "account_deleted") }
            if protocolError.code == .authFailed, state.failedAuths >= Self.maxFailedAuths { return .close(reason: "auth_failed") }
            return .proceed
        }
    }

    private func perform(_ request: Request, tag: String, state: inout SessionState, lineWriter: ConnectionLineWriter) async throws -> Next {
        switch request {
        case .ping:
            await lineWriter.write(OutboundLine.ok(tag: tag, ["time": .string(Timestamp.format(.now))]))
            return .proceed
        case .quit:
            await lineWriter.write(OutboundLine.ok(tag: tag, nil))
            return .close(reason: "quit")
        case .auth(let auth):
            try await authenticate(auth, tag: tag, state: &state, lineWriter: lineWriter)
            return .proceed
        default:
            guard let context = state.context else { throw ProtocolError.notAuthenticated() }
            let outcome = try await RequestRouter.route(request, in: context)
            await lineWriter.write(OutboundLine.ok(tag: tag, outcome.value))
            services.metrics.unlocks.wrappingAdd(outcome.pushes.filter { $0.kind == .unlock }.count, ordering: .relaxed)
            await services.registry.deliver(outcome.pushes, to: context.user.id)
            if let reason = outcome.closeReason { return .close(reason: reason) }
            return .proceed
        }
    }

    private func authenticate(_ auth: AuthRequest, tag: String, state: inout SessionState, lineWriter: ConnectionLineWriter) async throws {
        guard state.context == nil else { throw ProtocolError.conflict("this connection is already authenticated") }
        guard let user = try await services.store.authenticate(token: auth.token) else {
            state.failedAuths += 1
            throw ProtocolError.authFailed()
        }
        state.failedAuths = 0
        // Hold live pushes until the answer (and any replay) is written, so every push arrives once, in order.
        await lineWriter.beginReplay(after: Int64(auth.resumeAfter ?? 0))
        let store = services.store
        await lineWriter.readMissedPushes { after in
            (try? await store.read(user: user.id) { try $0.pushes(after: after, limit: 1000) }) ?? []
        }
        let session = services.registry.attach(lineWriter, to: user)
        let context = RequestContext(user: user, lineWriter: lineWriter, session: session, services: services)
        state.context = context
        channel.channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.Authenticated())
        // The session's progress (loaded here unless another connection of the user already holds it) answers the
        // AUTH and is ready for the first LOG.
        let progress = try await context.sessionProgress(now: Date())
        var lastSeq = progress.lastSeq
        var missed: [StoredPush] = []
        if let resumeAfter = auth.resumeAfter.map(Int64.init) {
            (lastSeq, missed) = try await context.read { records in
                (try records.lastPushSeq(), try records.pushes(after: resumeAfter, limit: Int.max))
            }
        }
        let answer: JSONObject = [
            "user": .string(user.name), "user_id": .string(user.id.description), "tier": .string(progress.subscription.tier),
            "time_zone": .string(progress.settings.timeZone), "last_seq": .int(Int(lastSeq)),
        ]
        await lineWriter.write(OutboundLine.ok(tag: tag, .object(answer)))
        if auth.resumeAfter == nil { await lineWriter.skip(through: lastSeq) }
        await lineWriter.finishReplay(missed)
        // Catalog additions and the days that passed are evaluated at the latest when the user authenticates; only
        // when they change something is it written.
        guard progress.changesOnCatchUp(now: Date()) else { return }
        let engine = context.engine
        let caughtUp = try await context.write { records in try engine.evaluate(.catchUp, in: records, now: Date()) }
        await services.registry.deliver(caughtUp.pushes, to: user.id)
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

/// What a connection knows about its client: nothing until AUTH succeeds.
struct SessionState {
    var context: RequestContext?
    var failedAuths = 0
}
