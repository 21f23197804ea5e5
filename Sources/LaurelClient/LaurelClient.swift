import Foundation
import LaurelJSON
import LaurelProtocol
import NIOCore
import NIOSSL

/// A client of a Laurel server for an app: it stays connected (reconnecting with backoff and jitter when the
/// connection goes), authenticates with `resume_after` the last push it delivered so that pushes arrive once each
/// and in order across reconnects, answers typed requests (``Verb``), and keeps an outbox of the facts the user
/// records (``OutboxFact``), sent, and sent again with the same id after a lost connection, until the server
/// acknowledges them: an app that logs offline syncs exactly once when it comes back.
///
/// ```swift
/// let client = try LaurelClient(configuration: .init(host: "laurel.example", token: token))
/// await client.start()
/// Task { for await push in client.pushes { show(push) } }
/// let entry = try await client.record(.log(activity: "pushups", amount: 10))
/// let profile = try await client.send(Verb.Profile())
/// ```
public actor LaurelClient {
    /// Where the client stands.
    public enum Status: Sendable, Equatable {
        case notStarted
        case connecting
        case connected
        case waitingToReconnect
        /// The token was refused; the client stopped.
        case authenticationFailed
        case stopped
    }

    /// Who the server took the token for (AUTH's answer).
    public struct Session: Decodable, Sendable, Equatable {
        public var user: String
        public var userID: String
        public var tier: String
        public var timeZone: String
        public var lastSeq: Int

        enum CodingKeys: String, CodingKey {
            case user, tier
            case userID = "user_id"
            case timeZone = "time_zone"
            case lastSeq = "last_seq"
        }
    }

    /// Every stored push once, in `seq` order, and the other pushes as they come. One consumer.
    public nonisolated let pushes: AsyncStream<Push>
    /// What became of each outbox entry, in the order it was settled. One consumer.
    public nonisolated let outboxOutcomes: AsyncStream<OutboxOutcome>

    public private(set) var status = Status.notStarted
    public private(set) var session: Session?
    /// The `seq` of the last stored push delivered; an app keeps it to pass as `lastSeenPush` at its next launch.
    public private(set) var lastSeq: Int?
    /// How many times the client has authenticated: 1 after the first connection, one more for each reconnect.
    public private(set) var authentications = 0
    /// Stored pushes that came again (a `seq` at or below one delivered) and were not delivered twice: a server
    /// that resumes correctly sends none.
    public private(set) var repeatedPushes = 0

    let configuration: LaurelClientConfiguration
    /// Made once from the configuration's TLS: every connection shares it.
    private let tls: NIOSSLContext?
    private let pushSink: AsyncStream<Push>.Continuation
    private let outcomeSink: AsyncStream<OutboxOutcome>.Continuation
    /// The connection now, authenticated or not yet; closed on ``reconnect()`` and ``stop()``.
    private var connection: LaurelConnection?
    private var reconnectAsked = false
    private var connectionWaiters: [CheckedContinuation<Void, any Error>] = []
    private var loop: Task<Void, Never>?
    var outbox: [OutboxEntry]
    var outboxFlush: Task<Void, Never>?
    /// Counts the outbox's flushes, so that a flush ends only its own.
    var outboxFlushes = 0
    var outcomeWaiters: [String: [CheckedContinuation<OutboxOutcome, Never>]] = [:]
    /// Outcomes of the last entries settled, for ``outcome(of:)`` asked after the fact.
    private(set) var recentOutcomes: [String: OutboxOutcome] = [:]
    private var recentOrder: [String] = []

    /// Reads the outbox the configuration's store kept; nothing connects before ``start()``.
    public init(configuration: LaurelClientConfiguration) throws {
        self.configuration = configuration
        tls = try configuration.tls.map { try NIOSSLContext(configuration: $0) }
        lastSeq = configuration.lastSeenPush
        outbox = try configuration.outboxStore.load()
        (pushes, pushSink) = AsyncStream.makeStream(of: Push.self)
        (outboxOutcomes, outcomeSink) = AsyncStream.makeStream(of: OutboxOutcome.self)
    }

    /// Connects, and keeps connecting whenever the connection goes, until ``stop()``.
    public func start() {
        guard loop == nil else { return }
        loop = Task { await self.keepConnected() }
    }

    /// Closes the connection and stops; waiting requests fail with ``LaurelClientError/stopped``. The outbox keeps
    /// what was not acknowledged.
    public func stop() async {
        loop?.cancel()
        outboxFlush?.cancel()
        connection?.close()
        await loop?.value
        loop = nil
        status = .stopped
        failWaiting(with: .stopped)
        pushSink.finish()
        outcomeSink.finish()
    }

    /// Closes the connection now; the client connects again at once (and resumes its pushes), as after any lost
    /// connection. For an app that knows its network changed.
    public func reconnect() {
        guard let connection else { return }
        reconnectAsked = true
        connection.close()
    }

    /// Sends `request` once connected and returns its answer. A request is not sent again when the connection goes
    /// before the answer (``LaurelClientError/connectionLost``): whether it took effect is unknown.
    public func send<Request: LaurelRequest>(_ request: Request) async throws -> Request.Answer {
        let argument = String(decoding: try WireCoding.encoder().encode(request), as: UTF8.self)
        let line = try await exchange(verb: Request.verb, argument: argument)
        return try Self.decode(Request.Answer.self, from: line)
    }

    /// Sends one request (`verb` and its argument object as JSON text) and waits for its answer line. Requests
    /// made one after the other on the actor leave in that order.
    func exchange(verb: String, argument: String) async throws -> ServerLine {
        try await waitUntilConnected()
        guard status == .connected, let connection else { throw LaurelClientError.connectionLost }
        do {
            return try await connection.request(verb, argument: ByteBuffer(string: argument))
        } catch {
            throw LaurelClientError.connectionLost
        }
    }

    private func waitUntilConnected() async throws {
        switch status {
        case .connected: return
        case .stopped: throw LaurelClientError.stopped
        case .authenticationFailed: throw LaurelClientError.authenticationFailed
        case .notStarted, .connecting, .waitingToReconnect:
            try await withCheckedThrowingContinuation { connectionWaiters.append($0) }
        }
    }

    static func decode<Answer: Decodable>(_ type: Answer.Type, from line: ServerLine) throws -> Answer {
        if line.kind == "ERR" { throw Self.error(of: line) }
        guard line.isOK else { throw LaurelClientError.malformedAnswer(line.raw) }
        let payload = line.payload.map(String.init) ?? "{}"
        // A raw answer keeps the server's text as it is.
        if Answer.self == RawJSON.self, let raw = (try? RawJSON(text: payload)) as? Answer { return raw }
        do {
            return try WireCoding.decoder().decode(Answer.self, from: Data(payload.utf8))
        } catch {
            throw LaurelClientError.malformedAnswer("\(error): \(line.raw.prefix(300))")
        }
    }

    static func error(of line: ServerLine) -> LaurelClientError {
        let object = line.value?.objectValue ?? [:]
        var details: [String: JSONValue] = [:]
        for key in object.keys where key != "code" && key != "message" { details[key] = object[key] }
        return .server(code: object["code"]?.stringValue ?? "unreadable_error", message: object["message"]?.stringValue ?? "", details: details)
    }

    // MARK: The connection

    /// How one connection ended.
    private enum Ending {
        /// The connection ended, after authenticating or before.
        case ended(authenticated: Bool)
        case authenticationFailed
        /// AUTH was refused for now (`rate_limited`): try again after this long.
        case refused(Duration)
    }

    private func keepConnected() async {
        var backoff = ReconnectBackoff(policy: configuration.reconnect)
        while !Task.isCancelled {
            status = .connecting
            let ending = await connectOnce()
            disconnected()
            if case .authenticationFailed = ending {
                status = .authenticationFailed
                failWaiting(with: .authenticationFailed)
                return
            }
            if Task.isCancelled { break }
            if reconnectAsked {
                // The app closed the connection itself: come back at once.
                reconnectAsked = false
                backoff.reset()
                continue
            }
            if case .ended(let authenticated) = ending, authenticated { backoff.reset() }
            var delay = backoff.nextDelay()
            if case .refused(let wait) = ending { delay = max(delay, wait) }
            status = .waitingToReconnect
            try? await Task.sleep(for: delay)
        }
    }

    private func connectOnce() async -> Ending {
        guard let connection = try? await LaurelConnection.open(
            host: configuration.host, port: configuration.port, transport: configuration.transport, tls: tls,
            serverHostname: configuration.serverHostname)
        else { return .ended(authenticated: false) }
        self.connection = connection
        defer { connection.close() }
        // A stop while connecting closed the connection: AUTH fails at once.
        guard !Task.isCancelled, let answer = try? await connection.authenticate(token: configuration.token, resumeAfter: lastSeq) else {
            return .ended(authenticated: false)
        }
        guard answer.isOK, let session = try? Self.decode(Session.self, from: answer) else {
            switch answer.errorCode {
            case "auth_failed": return .authenticationFailed
            case "rate_limited": return .refused(.milliseconds(answer.value?["retry_after_ms"]?.intValue ?? 1000))
            default: return .ended(authenticated: false)
            }
        }
        authenticated(session)
        for await arrival in connection.arrivals {
            if case .line(let line) = arrival { receive(line) }
        }
        return .ended(authenticated: true)
    }

    private func authenticated(_ session: Session) {
        self.session = session
        authentications += 1
        // Without a push seen before, delivery starts after the newest stored push.
        if lastSeq == nil { lastSeq = session.lastSeq }
        status = .connected
        let waiters = connectionWaiters
        connectionWaiters = []
        for waiter in waiters { waiter.resume() }
        flushOutbox()
    }

    /// An untagged line: a push, unless it is an `ERR` that belongs to no request or the `BYE` before a close.
    private func receive(_ line: ServerLine) {
        guard line.isUntagged, line.kind != "ERR", line.kind != "HELLO", line.kind != "BYE", let object = line.value else { return }
        let seq = object["seq"]?.intValue
        if let seq {
            // A stored push at or below the last one delivered was delivered before the reconnect.
            if let lastSeq, seq <= lastSeq {
                repeatedPushes += 1
                return
            }
            lastSeq = seq
        }
        pushSink.yield(Push(kind: String(line.kind), seq: seq, object: object))
    }

    /// The connection ended: requests waiting on it failed with it, and the outbox waits for the next one.
    private func disconnected() {
        connection = nil
        outboxFlush?.cancel()
        outboxFlush = nil
    }

    func rememberOutcome(_ outcome: OutboxOutcome, of id: String) {
        recentOutcomes[id] = outcome
        recentOrder.append(id)
        if recentOrder.count > 1000 { recentOutcomes.removeValue(forKey: recentOrder.removeFirst()) }
    }

    func outcomeSinkYield(_ outcome: OutboxOutcome) {
        outcomeSink.yield(outcome)
    }

    private func failWaiting(with error: LaurelClientError) {
        let waiters = connectionWaiters
        connectionWaiters = []
        for waiter in waiters { waiter.resume(throwing: error) }
        disconnected()
    }
}
