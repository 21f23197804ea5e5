import Foundation
import LaurelClient
import LaurelJSON
import LaurelProtocol
import NIOCore
import NIOSSL
import Synchronization
import Testing

/// The tests' view of a connection to the server: the client library's ``LaurelConnection`` (greeting, AUTH, tags,
/// answers matched to requests) with what tests need besides: every line the server sent, one after the other
/// (`nextLine`), lines sent exactly as given (`sendRaw`, `sendBytes`) to see what the server does with bad ones,
/// and the pushes that came while waiting for an answer, kept in `pushes`.
final class LineClient: Sendable {
    /// One line the server sent, parsed.
    typealias Line = ServerLine

    let connection: LaurelConnection
    private let iterator: ArrivalIterator

    /// Connects over plain TCP, TLS with `tls` (verifying the server's certificate for `serverHostname`) or
    /// WebSocket; the greeting is the first line read.
    static func connect(
        port: Int, host: String = "127.0.0.1", transport: LaurelTransport = .tcp, tls: NIOSSLContext? = nil, serverHostname: String? = nil
    ) async throws -> LineClient {
        LineClient(try await LaurelConnection.open(
            host: host, port: port, transport: transport, tls: tls, serverHostname: serverHostname, maxLineBytes: 16 << 20, greetingArrives: true))
    }

    /// Connects and reads the greeting.
    static func connectAndGreet(port: Int, transport: LaurelTransport = .tcp, tls: NIOSSLContext? = nil, serverHostname: String? = nil) async throws -> LineClient {
        let client = try await connect(port: port, transport: transport, tls: tls, serverHostname: serverHostname)
        let hello = try await client.nextLine()
        #expect(hello.kind == "HELLO")
        return client
    }

    /// Connects and authenticates (the library's handshake: the greeting, then AUTH with `resume_after`).
    static func authenticated(
        port: Int, token: String, resumeAfter: Int? = nil, transport: LaurelTransport = .tcp, tls: NIOSSLContext? = nil,
        serverHostname: String? = nil
    ) async throws -> LineClient {
        let (client, answer) = try await authenticating(
            port: port, token: token, resumeAfter: resumeAfter, transport: transport, tls: tls, serverHostname: serverHostname)
        #expect(answer.kind == "OK", "AUTH failed: \(answer)")
        return client
    }

    /// Connects and sends AUTH after the greeting; returns the client with AUTH's answer, whatever it is.
    static func authenticating(
        port: Int, token: String, resumeAfter: Int? = nil, transport: LaurelTransport = .tcp, tls: NIOSSLContext? = nil,
        serverHostname: String? = nil
    ) async throws -> (client: LineClient, answer: Line) {
        let client = LineClient(try await LaurelConnection.open(
            host: "127.0.0.1", port: port, transport: transport, tls: tls, serverHostname: serverHostname, maxLineBytes: 16 << 20))
        return (client, try await client.connection.authenticate(token: token, resumeAfter: resumeAfter))
    }

    private init(_ connection: LaurelConnection) {
        self.connection = connection
        iterator = ArrivalIterator(connection.arrivals.makeAsyncIterator())
    }

    /// Sends text as it is (no LF added).
    func sendRaw(_ text: String) async throws {
        try await connection.sendBytes(ByteBuffer(string: text))
    }

    /// Sends bytes as they are, for lines that are not valid UTF-8.
    func sendBytes(_ bytes: [UInt8]) async throws {
        try await connection.sendBytes(ByteBuffer(bytes: bytes))
    }

    /// Sends `line` as one line, its tag and all as given.
    func send(_ line: String) async throws {
        try await connection.sendLine(ByteBuffer(string: line))
    }

    /// Sends a request with a tag of the connection's own, without waiting; returns the tag's number, which its
    /// answer arrives with (`nextArrival`).
    @discardableResult
    func sendRequest(_ verb: String, _ argument: JSONObject? = nil, flush: Bool = true) -> Int {
        connection.send(verb, argument: argument.map { ByteBuffer(string: JSONValue.object($0).serialized()) }, flush: flush)
    }

    /// The next line from the server that no request waits for, the answers to `sendRequest` included. Throws
    /// `closed` when the server closed the connection and `timedOut` after `timeout` (a timeout ends the client's
    /// line stream: use a new client afterwards).
    func nextArrival(timeout: Duration = .seconds(10)) async throws -> LaurelConnection.Arrival {
        let iterator = self.iterator
        let outcome = try await withThrowingTaskGroup(of: NextOutcome.self) { group in
            group.addTask { await iterator.nextLine().map(NextOutcome.arrival) ?? .closed }
            group.addTask {
                try await Task.sleep(for: timeout)
                return .timedOut
            }
            defer { group.cancelAll() }
            return try await group.next() ?? .timedOut
        }
        switch outcome {
        case .arrival(let arrival): return arrival
        case .closed: throw LineClientError.closed
        case .timedOut: throw LineClientError.timedOut
        }
    }

    private enum NextOutcome: Sendable {
        case arrival(LaurelConnection.Arrival)
        case closed
        case timedOut
    }

    /// The next line from the server, whatever it is (``nextArrival(timeout:)`` as a line; lines too long to read
    /// are passed over).
    func nextLine(timeout: Duration = .seconds(10)) async throws -> Line {
        while true {
            switch try await nextArrival(timeout: timeout) {
            case .answer(_, let line), .line(let line): return line
            case .lineTooLong: continue
            }
        }
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

    /// Sends one request with a fresh tag and returns its response; pushes that came first are kept in `pushes`,
    /// other lines before it are passed over. `timeout` bounds the wait for each line.
    @discardableResult
    func request(_ verb: String, _ argument: JSONObject? = nil, timeout: Duration = .seconds(15)) async throws -> Line {
        let tag = sendRequest(verb, argument)
        while true {
            let arrival = try await nextArrival(timeout: timeout)
            switch arrival {
            case .answer(tag, let line): return line
            case .line(let line) where line.isPush: pushes.withLock { $0.append(line) }
            default: continue
            }
        }
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
        try? await connection.channel.close()
    }
}

enum LineClientError: Error {
    case timedOut
    case closed
}

/// The one iterator of a client's arrivals, shared by its awaiting calls (one at a time).
final class ArrivalIterator: @unchecked Sendable {
    // Only one `nextArrival` runs at a time per client (tests await each in turn), which makes this safe.
    private var iterator: AsyncStream<LaurelConnection.Arrival>.Iterator

    init(_ iterator: AsyncStream<LaurelConnection.Arrival>.Iterator) {
        self.iterator = iterator
    }

    func nextLine() async -> LaurelConnection.Arrival? {
        await iterator.next()
    }
}
