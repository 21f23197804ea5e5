import Foundation
import LaurelClient
import LaurelJSON
import LaurelProtocol
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import Testing

/// A client of the line protocol over a real TCP socket, as an app would be: it sends request lines, matches
/// tagged responses, and keeps the pushes (`*` lines) that arrive in between.
final class LineClient: Sendable {
    /// One line the server sent, parsed.
    typealias Line = ServerLine

    private let channel: any Channel
    private let writer: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let reader: Task<Void, Never>
    private let iterator: IteratorBox

    /// Connects over plain TCP, or TLS with `tls` (verifying the server's certificate for `serverHostname`).
    static func connect(port: Int, host: String = "127.0.0.1", tls: NIOSSLContext? = nil, serverHostname: String? = nil) async throws -> LineClient {
        // No line encoder on the way out: `send` adds the LF itself, and `sendRaw` must send exactly what it is given
        // (partial lines, CRLF, several lines at once).
        let channel = try await ServerChannel.openLines(
            host: host, port: port, tls: tls, serverHostname: serverHostname, maxLineBytes: 16 << 20, linesOut: false)
        let (lines, continuation) = AsyncStream<Line>.makeStream()
        let (writers, writerContinuation) = AsyncStream<NIOAsyncChannelOutboundWriter<ByteBuffer>>.makeStream()
        let reader = Task {
            try? await channel.executeThenClose { inbound, outbound in
                writerContinuation.yield(outbound)
                writerContinuation.finish()
                for try await frame in inbound {
                    guard case .line(let buffer) = frame else { continue }
                    continuation.yield(Self.parse(String(buffer: buffer)))
                }
            }
            writerContinuation.finish()
            continuation.finish()
        }
        var pending = writers.makeAsyncIterator()
        guard let writer = await pending.next() else { throw LineClientError.closed }
        return LineClient(channel: channel.channel, writer: writer, reader: reader, lines: lines)
    }

    /// Connects and reads the greeting.
    static func connectAndGreet(port: Int, tls: NIOSSLContext? = nil, serverHostname: String? = nil) async throws -> LineClient {
        let client = try await connect(port: port, tls: tls, serverHostname: serverHostname)
        let hello = try await client.nextLine()
        #expect(hello.kind == "HELLO")
        return client
    }

    /// Connects, reads the greeting and authenticates.
    static func authenticated(
        port: Int, token: String, resumeAfter: Int? = nil, tls: NIOSSLContext? = nil, serverHostname: String? = nil
    ) async throws -> LineClient {
        let client = try await connectAndGreet(port: port, tls: tls, serverHostname: serverHostname)
        var argument: JSONObject = ["token": .string(token)]
        if let resumeAfter { argument["resume_after"] = .int(resumeAfter) }
        let answer = try await client.request("AUTH", argument)
        #expect(answer.kind == "OK", "AUTH failed: \(answer)")
        return client
    }

    private init(channel: any Channel, writer: NIOAsyncChannelOutboundWriter<ByteBuffer>, reader: Task<Void, Never>, lines: AsyncStream<Line>) {
        self.channel = channel
        self.writer = writer
        self.reader = reader
        self.iterator = IteratorBox(lines.makeAsyncIterator())
    }

    static func parse(_ raw: String) -> Line {
        ServerLine(raw)
    }

    /// Sends raw bytes as they are (no LF added).
    func sendRaw(_ text: String) async throws {
        try await writer.write(ByteBuffer(string: text))
    }

    /// Sends bytes as they are, for lines that are not valid UTF-8.
    func sendBytes(_ bytes: [UInt8]) async throws {
        try await writer.write(ByteBuffer(bytes: bytes))
    }

    func send(_ line: String) async throws {
        try await sendRaw(line + "\n")
    }

    /// The next line from the server, whatever it is. Throws `closed` when the server closed the connection and
    /// `timedOut` after `timeout` (a timeout ends the client's line stream: use a new client afterwards).
    func nextLine(timeout: Duration = .seconds(10)) async throws -> Line {
        let iterator = self.iterator
        let outcome = try await withThrowingTaskGroup(of: NextOutcome.self) { group in
            group.addTask { await iterator.next().map(NextOutcome.line) ?? .closed }
            group.addTask {
                try await Task.sleep(for: timeout)
                return .timedOut
            }
            defer { group.cancelAll() }
            return try await group.next() ?? .timedOut
        }
        switch outcome {
        case .line(let line): return line
        case .closed: throw LineClientError.closed
        case .timedOut: throw LineClientError.timedOut
        }
    }

    private enum NextOutcome: Sendable {
        case line(Line)
        case closed
        case timedOut
    }

    /// Lines up to and including the response tagged `tag`, split into that response and the lines before it.
    func response(tagged tag: String, timeout: Duration = .seconds(15)) async throws -> (response: Line, before: [Line]) {
        var before: [Line] = []
        while true {
            let line = try await nextLine(timeout: timeout)
            if line.tag == tag { return (line, before) }
            before.append(line)
        }
    }

    private let counter = Mutex(0)

    /// Sends one request with a fresh tag and returns its response; pushes that came first are kept in `pushes`.
    @discardableResult
    func request(_ verb: String, _ argument: JSONObject? = nil) async throws -> Line {
        let tag = "t\(counter.withLock { $0 += 1; return $0 })"
        let line = argument.map { "\(tag) \(verb) \(JSONValue.object($0).serialized())" } ?? "\(tag) \(verb)"
        try await send(line)
        let (response, before) = try await response(tagged: tag)
        pushes.withLock { $0.append(contentsOf: before.filter { $0.isPush }) }
        return response
    }

    /// Pushes seen while waiting for responses.
    let pushes = Mutex<[Line]>([])

    /// Waits until a push of `kind` has been seen (looking at earlier pushes first) and takes it.
    func push(_ kind: String, timeout: Duration = .seconds(10)) async throws -> Line {
        if let earlier = pushes.withLock({ seen -> Line? in
            guard let index = seen.firstIndex(where: { $0.kind == kind }) else { return nil }
            return seen.remove(at: index)
        }) {
            return earlier
        }
        while true {
            let line = try await nextLine(timeout: timeout)
            if line.isPush && line.kind == kind { return line }
            if line.isPush { pushes.withLock { $0.append(line) } }
        }
    }

    /// Reads until the server closes the connection; returns what came before, or nil if it stayed open for
    /// `timeout`.
    func linesUntilClosed(timeout: Duration = .seconds(10)) async -> [Line]? {
        var seen: [Line] = []
        while true {
            do {
                seen.append(try await nextLine(timeout: timeout))
            } catch LineClientError.closed {
                return seen
            } catch {
                return nil
            }
        }
    }

    func close() async {
        try? await channel.close()
    }

    deinit {
        channel.close(promise: nil)
    }
}

enum LineClientError: Error {
    case timedOut
    case closed
}

/// The one iterator of a client's line stream, shared by its awaiting calls (one at a time).
final class IteratorBox: @unchecked Sendable {
    // Only one `nextLine` runs at a time per client (tests await each in turn), which makes this safe.
    private var iterator: AsyncStream<LineClient.Line>.Iterator

    init(_ iterator: AsyncStream<LineClient.Line>.Iterator) {
        self.iterator = iterator
    }

    func next() async -> LineClient.Line? {
        await iterator.next()
    }
}
