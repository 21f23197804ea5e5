import LaurelJSON
import LaurelProtocol
import NIOCore
import NIOSSL

/// One connection to a Laurel server, with what the protocol asks of every client done once for the repository:
/// it reads the greeting, authenticates (with `resume_after`), gives each request a tag, matches each answer to its
/// request however many are in flight, and keeps the lines that answer no request (pushes, `* BYE`, an untagged
/// `* ERR`) apart, in ``arrivals``. ``LaurelClient`` is built on it, and so are laurel-load and the tests' clients.
///
/// ```swift
/// let connection = try await LaurelConnection.open(host: "laurel.example", port: 7420)
/// guard try await connection.authenticate(token: token).isOK else { ... }
/// let profile = try await connection.request("PROFILE")
/// for await case .line(let push) in connection.arrivals { ... }
/// ```
///
/// A request either waits for its answer (``request(_:argument:)``), or is only sent (``send(_:argument:flush:)``)
/// and its answer comes among the arrivals with the request's tag number, in the server's order: a pipelining
/// caller (the load client) reads all of its answers in one loop, with no task or continuation per request.
public final class LaurelConnection: Sendable {
    /// A line of the server that no ``LaurelConnection/request(_:argument:)`` waits for, in the order sent.
    public enum Arrival: Sendable {
        /// The answer to the request that ``LaurelConnection/send(_:argument:flush:)`` sent with this tag number.
        case answer(tag: Int, ServerLine)
        /// Any other line: a push, `* BYE`, an untagged `* ERR`, or the answer to a line sent as it is.
        case line(ServerLine)
        /// A line longer than the connection's `maxLineBytes`; it was dropped.
        case lineTooLong
    }

    /// The connection's channel, to close it from elsewhere or to send on its event loop.
    public let channel: any Channel
    /// TCP (TLS or not) or WebSocket: a request line ends with a LF on TCP, and is one text message on WebSocket.
    public let transport: LaurelTransport
    /// Every line no request waits for, in the server's order; they end when the connection does. One consumer.
    public let arrivals: AsyncStream<Arrival>
    private let tags: RequestTags
    private let router: NIOLoopBound<AnswerRouter>
    private let greeted: EventLoopFuture<ServerLine>
    /// TCP lines end with a LF; a WebSocket message is one line as it is.
    private let endsLines: Bool

    private init(
        channel: any Channel, transport: LaurelTransport, arrivals: AsyncStream<Arrival>, tags: RequestTags, router: NIOLoopBound<AnswerRouter>,
        greeted: EventLoopFuture<ServerLine>
    ) {
        self.channel = channel
        self.transport = transport
        self.arrivals = arrivals
        self.tags = tags
        self.router = router
        self.greeted = greeted
        endsLines = transport == .tcp
    }

    /// A connection nobody can send on or read from any more is closed.
    deinit {
        channel.close(promise: nil)
    }

    /// Connects over TCP (TLS with `tls`, its certificate checked for `serverHostname` or else `host`) or WebSocket,
    /// and returns once connected, without waiting for the greeting. With `greetingArrives`, the greeting is also
    /// the first of the ``arrivals`` (for tests that read every line the server sends).
    public static func open(
        host: String, port: Int, transport: LaurelTransport = .tcp, tls: NIOSSLContext? = nil, serverHostname: String? = nil,
        maxLineBytes: Int = 64 << 20, connectTimeout: Duration = .seconds(10), greetingArrives: Bool = false
    ) async throws -> LaurelConnection {
        try await ServerChannel.open(
            host: host, port: port, transport: transport, tls: tls, serverHostname: serverHostname, maxLineBytes: maxLineBytes,
            linesOut: false, connectTimeout: connectTimeout
        ) { channel in
            let tags = RequestTags()
            let (arrivals, sink) = AsyncStream.makeStream(of: Arrival.self)
            let greeting = channel.eventLoop.makePromise(of: ServerLine.self)
            let router = AnswerRouter(tags: tags, arrivals: sink, greeting: greeting, greetingArrives: greetingArrives)
            do {
                try channel.pipeline.syncOperations.addHandler(router)
            } catch {
                greeting.fail(error)
                throw error
            }
            return LaurelConnection(
                channel: channel, transport: transport, arrivals: arrivals, tags: tags, router: NIOLoopBound(router, eventLoop: channel.eventLoop),
                greeted: greeting.futureResult)
        }
    }

    /// The server's first line: `* HELLO {...}`, or `* BYE {...}` from a server that takes no more connections.
    /// Throws ``LaurelConnectionError/closed`` when the connection ended before it.
    public func greeting() async throws -> ServerLine {
        try await greeted.get()
    }

    /// Waits for the greeting, sends AUTH with `token`, and with `resumeAfter` (the `seq` of the last stored push
    /// the caller has) as `resume_after`, so that the server sends the stored pushes after it; returns AUTH's
    /// answer, `OK` with the session or `ERR`. Throws ``LaurelConnectionError/notGreeted(_:)`` when the greeting
    /// was not `* HELLO`.
    public func authenticate(token: String, resumeAfter: Int? = nil) async throws -> ServerLine {
        let hello = try await greeting()
        guard hello.isUntagged, hello.kind == "HELLO" else { throw LaurelConnectionError.notGreeted(hello.raw) }
        var argument: JSONObject = ["token": .string(token)]
        if let resumeAfter { argument["resume_after"] = .int(resumeAfter) }
        return try await request("AUTH", argument: ByteBuffer(string: JSONValue.object(argument).serialized()))
    }

    /// Sends `verb` with `argument` (a JSON object's text) and waits for its answer, `OK` or `ERR`. The line is
    /// written before the caller's first suspension, so that requests made one after the other on an actor leave
    /// in that order. Throws ``LaurelConnectionError/closed`` when the connection ends before the answer.
    public nonisolated(nonsending) func request(_ verb: String, argument: ByteBuffer? = nil) async throws -> ServerLine {
        let tag = tags.next()
        let line = requestLine(tag: tag, verb: verb, argument: argument)
        return try await withCheckedThrowingContinuation { continuation in
            guard tags.await(tag, with: continuation) else {
                continuation.resume(throwing: LaurelConnectionError.closed)
                return
            }
            let written = channel.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenFailure { [tags] _ in
                tags.take(tag)?.resume(throwing: LaurelConnectionError.closed)
            }
            channel.writeAndFlush(line, promise: written)
        }
    }

    /// Sends `verb` with `argument` without waiting: the answer arrives as ``Arrival/answer(tag:_:)`` with the
    /// returned tag number. With `flush` false the line waits for the next flush (several requests, one write).
    /// Callable from any thread, the channel's event loop included; on a closed connection nothing is sent.
    @discardableResult
    public func send(_ verb: String, argument: ByteBuffer? = nil, flush: Bool = true) -> Int {
        let tag = tags.next()
        write(requestLine(tag: tag, verb: verb, argument: argument), flush: flush)
        return tag
    }

    /// ``send(_:argument:flush:)`` with the argument written straight into the request's line by
    /// `writingArgument`: no buffer of its own.
    @discardableResult
    public func send(_ verb: String, flush: Bool = true, writingArgument: (inout ByteBuffer) -> Void) -> Int {
        let tag = tags.next()
        var line = lineStart(tag: tag, verb: verb, capacity: 128)
        line.writeInteger(UInt8(ascii: " "))
        writingArgument(&line)
        endLine(&line)
        write(line, flush: flush)
        return tag
    }

    /// From the returned future on, every arrival goes to `receiver` on the channel's event loop as it is read,
    /// and ``arrivals`` ends after the lines it already holds. `receiver` also learns when the connection ends
    /// (at once, if it has). Requests that wait for their answers still get them.
    public func receiveArrivals(with receiver: any ArrivalReceiver) -> EventLoopFuture<Void> {
        channel.eventLoop.submit { [router] in
            router.value.divert(to: receiver)
        }
    }

    /// Writes out the requests sent with `flush` false.
    public func flush() {
        channel.flush()
    }

    /// Sends `line` as one line, exactly as given (TCP: with a LF after it; WebSocket: one text message): for lines
    /// the server should refuse. Its answer arrives as a ``Arrival/line(_:)``, whatever its tag.
    public func sendLine(_ line: ByteBuffer) async throws {
        var line = line
        endLine(&line)
        try await writeWaiting(line)
    }

    /// Sends `bytes` exactly as given, nothing added (TCP: part of a line, several lines, CRLF; WebSocket: one
    /// text message). Waits while the channel has more than it should still to write.
    public func sendBytes(_ bytes: ByteBuffer) async throws {
        try await writeWaiting(bytes)
    }

    /// Closes the connection: waiting requests fail with ``LaurelConnectionError/closed`` and the arrivals end.
    public func close() {
        channel.close(promise: nil)
    }

    private func requestLine(tag: Int, verb: String, argument: ByteBuffer?) -> ByteBuffer {
        var line = lineStart(tag: tag, verb: verb, capacity: argument?.readableBytes ?? 0)
        if let argument {
            line.writeInteger(UInt8(ascii: " "))
            line.writeImmutableBuffer(argument)
        }
        endLine(&line)
        return line
    }

    /// `c<tag> VERB`, with room for `capacity` more bytes.
    private func lineStart(tag: Int, verb: String, capacity: Int) -> ByteBuffer {
        var line = channel.allocator.buffer(capacity: verb.utf8.count + capacity + 24)
        line.writeInteger(RequestTags.prefix)
        line.writeString(String(tag))
        line.writeInteger(UInt8(ascii: " "))
        line.writeString(verb)
        return line
    }

    private func endLine(_ line: inout ByteBuffer) {
        if endsLines { line.writeInteger(UInt8(ascii: "\n")) }
    }

    private func write(_ line: ByteBuffer, flush: Bool) {
        if flush {
            channel.writeAndFlush(line, promise: nil)
        } else {
            channel.write(line, promise: nil)
        }
    }

    private func writeWaiting(_ bytes: ByteBuffer) async throws {
        guard channel.isActive else { throw LaurelConnectionError.closed }
        let written = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(bytes, promise: written)
        // As a socket's own buffer does: wait for the bytes to leave only while too much waits to be written.
        guard !channel.isWritable else { return }
        do {
            try await written.futureResult.get()
        } catch {
            throw LaurelConnectionError.closed
        }
    }
}
