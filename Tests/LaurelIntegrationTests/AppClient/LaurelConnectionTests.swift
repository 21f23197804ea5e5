import Foundation
import LaurelClient
import LaurelJSON
import LaurelProtocol
import LaurelServer
import NIOCore
import Testing

/// The client library's lower layer against a real server: the greeting and AUTH, answers matched to their
/// requests with many in flight (waited for, and sent without waiting), the lines that answer no request kept
/// apart in the server's order, lines sent as they are, and what a closed connection does to waiting requests.
@Suite struct LaurelConnectionTests {
    static func open(_ port: Int, transport: LaurelTransport = .tcp, greetingArrives: Bool = false) async throws -> LaurelConnection {
        try await LaurelConnection.open(host: "127.0.0.1", port: port, transport: transport, greetingArrives: greetingArrives)
    }

    static func log(_ id: String) -> ByteBuffer {
        ByteBuffer(string: #"{"activity":"pushups","amount":1,"id":"\#(id)"}"#)
    }

    /// Runs `body` with the port of a server listening for `transport` (TCP or its WebSocket endpoint).
    static func withServer(for transport: LaurelTransport, _ body: @Sendable (Int) async throws -> Void) async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.webSocketPort = 0
        try await TestServer.withServer(configuration: configuration) { server in
            try await body(transport == .tcp ? server.port : try #require(server.webSocketPort))
        }
    }

    @Test(arguments: [LaurelTransport.tcp, .webSocket()]) func pipelinedAnswersFindTheirRequests(transport: LaurelTransport) async throws {
        let user = try await LaurelTestDatabase.createUser(transport == .tcp ? "connection-tcp" : "connection-ws")
        try await Self.withServer(for: transport) { port in
            let connection = try await Self.open(port, transport: transport)
            #expect(try await connection.greeting().kind == "HELLO")
            let auth = try await connection.authenticate(token: user.token, resumeAfter: 0)
            #expect(auth.isOK && auth.object["user"]?.stringValue == user.name, "\(auth)")

            // 100 LOGs in flight at once, written together; each answer names its own id.
            var ids: [Int: String] = [:]
            for index in 0..<100 {
                let id = "pipelined-\(index)"
                ids[connection.send("LOG", argument: Self.log(id), flush: index == 99)] = id
            }
            // Requests waited for, while the others are in flight: each gets its own answer.
            async let profile = connection.request("PROFILE")
            async let ping = connection.request("PING")
            // A PING after them answers after every line written before it: the pushes of the LOGs too.
            let barrier = connection.send("PING")
            var answered: [Int: ServerLine] = [:]
            var pushes: [ServerLine] = []
            for await arrival in connection.arrivals {
                switch arrival {
                case .answer(let tag, let line): answered[tag] = line
                case .line(let line): pushes.append(line)
                case .lineTooLong: Issue.record("no line is too long here")
                }
                if answered[barrier] != nil { break }
            }
            #expect(answered.count == ids.count + 1)
            for (tag, id) in ids {
                let answer = try #require(answered[tag])
                #expect(answer.isOK && answer.object["log"]?["id"]?.stringValue == id, "\(answer)")
            }
            let (profiled, pinged) = try await (profile, ping)
            #expect(profiled.isOK && pinged.isOK)
            // The first LOG unlocked `first_exercise`; its push is a line of its own, not an answer.
            #expect(pushes.allSatisfy { $0.isPush }, "\(pushes.map(\.raw))")
            #expect(pushes.contains { $0.kind == "UNLOCK" && $0.object["id"] == "first_exercise" }, "\(pushes.map(\.raw))")
            #expect(try await LaurelTestDatabase.logCount(of: user) == 100)
        }
    }

    @Test func linesSentAsTheyAreAreAnsweredAsLines() async throws {
        try await TestServer.run { port in
            let connection = try await Self.open(port, greetingArrives: true)
            try await connection.sendLine(ByteBuffer(string: "x1 PROFILE"))
            try await connection.sendBytes(ByteBuffer(string: "x2 PI"))
            try await connection.sendBytes(ByteBuffer(string: "NG\r\nx3 LOGS\n"))
            var lines: [String] = []
            for await arrival in connection.arrivals {
                guard case .line(let line) = arrival else {
                    Issue.record("only lines arrive: \(arrival)")
                    break
                }
                lines.append("\(line.tag) \(line.kind) \(line.errorCode ?? "")")
                if lines.count == 4 { break }
            }
            #expect(lines == ["* HELLO ", "x1 ERR not_authenticated", "x2 OK ", "x3 ERR not_authenticated"])
        }
    }

    @Test func aClosedConnectionFailsWhatWaitsOnIt() async throws {
        let user = try await LaurelTestDatabase.createUser("connection-closed")
        try await TestServer.run { port in
            let connection = try await Self.open(port)
            #expect(try await connection.authenticate(token: user.token).isOK)
            // QUIT is answered, then the server closes: a request after it is never answered.
            #expect(try await connection.request("QUIT").isOK)
            await #expect(throws: LaurelConnectionError.closed) { try await connection.request("PING") }
            var rest: [ServerLine] = []
            for await case .line(let line) in connection.arrivals { rest.append(line) }
            #expect(rest.map(\.raw) == [#"* BYE {"reason":"quit"}"#])
            await #expect(throws: LaurelConnectionError.closed) { try await connection.sendBytes(ByteBuffer(string: "x1 PING\n")) }
        }
    }

    @Test func aFullServerIsNotAGreeting() async throws {
        let user = try await LaurelTestDatabase.createUser("connection-full")
        try await TestServer.run(configuration: ServerConfiguration(maxConnections: 1)) { port in
            let first = try await Self.open(port)
            #expect(try await first.authenticate(token: user.token).isOK)
            let second = try await Self.open(port)
            await #expect(throws: LaurelConnectionError.notGreeted(#"* BYE {"reason":"too_many_connections"}"#)) {
                try await second.authenticate(token: user.token)
            }
            #expect(try await first.request("PING").isOK)
        }
    }

    @Test(arguments: [LaurelTransport.tcp, .webSocket()]) func arrivalsTakenOnTheEventLoop(transport: LaurelTransport) async throws {
        let user = try await LaurelTestDatabase.createUser(transport == .tcp ? "receiver-tcp" : "receiver-ws")
        try await Self.withServer(for: transport) { port in
            let connection = try await Self.open(port, transport: transport, greetingArrives: true)
            #expect(try await connection.authenticate(token: user.token).isOK)
            let receiver = LoggingReceiver(connection: connection, logs: 20)
            try await connection.receiveArrivals(with: receiver).get()
            // What came before the hand-over stays in `arrivals`, which then ends.
            var before: [String] = []
            for await case .line(let line) in connection.arrivals { before.append(line.kind) }
            #expect(before == ["HELLO"])

            receiver.sendNext()
            let seen = try await receiver.ended.futureResult.get()
            #expect(seen.offEventLoop == 0)
            #expect(seen.answers.count == 21, "\(seen.answers.map(\.raw))")
            #expect(seen.answers.allSatisfy { $0.isOK }, "\(seen.answers.map(\.raw))")
            #expect(seen.answers.prefix(20).map { $0.object["log"]?["id"]?.stringValue } == (1...20).map { "on-loop-\($0)" })
            #expect(seen.lines.contains { $0.kind == "UNLOCK" && $0.object["id"] == "first_exercise" }, "\(seen.lines.map(\.raw))")
            #expect(seen.lines.last?.raw == #"* BYE {"reason":"quit"}"#)
            #expect(seen.endings == 1)
            #expect(try await LaurelTestDatabase.logCount(of: user) == 20)

            // A receiver given to a connection that has ended learns so at once.
            let late = LoggingReceiver(connection: connection, logs: 0)
            try await connection.receiveArrivals(with: late).get()
            #expect(try await late.ended.futureResult.get().endings == 1)
        }
    }
}

/// Sends LOGs one after another from the connection's event loop, each when the one before is answered, then QUIT;
/// keeps what arrived and where it ran.
private final class LoggingReceiver: ArrivalReceiver, @unchecked Sendable {
    struct Seen: Sendable {
        var answers: [ServerLine] = []
        var lines: [ServerLine] = []
        var offEventLoop = 0
        var endings = 0
    }

    let connection: LaurelConnection
    let logs: Int
    let ended: EventLoopPromise<Seen>
    private var seen = Seen()
    private var sent = 0

    init(connection: LaurelConnection, logs: Int) {
        self.connection = connection
        self.logs = logs
        ended = connection.channel.eventLoop.makePromise()
    }

    func sendNext() {
        connection.channel.eventLoop.execute { self.sendFollowing() }
    }

    private func sendFollowing() {
        sent += 1
        if sent <= logs {
            connection.send("LOG", argument: LaurelConnectionTests.log("on-loop-\(sent)"))
        } else {
            connection.send("QUIT")
        }
    }

    func received(_ arrival: LaurelConnection.Arrival) {
        if !connection.channel.eventLoop.inEventLoop { seen.offEventLoop += 1 }
        switch arrival {
        case .answer(_, let line):
            seen.answers.append(line)
            if sent <= logs { sendFollowing() }
        case .line(let line):
            seen.lines.append(line)
        case .lineTooLong:
            Issue.record("no line is too long here")
        }
    }

    func connectionEnded() {
        if !connection.channel.eventLoop.inEventLoop { seen.offEventLoop += 1 }
        seen.endings += 1
        ended.succeed(seen)
    }
}
