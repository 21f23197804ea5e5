import Foundation
import LaurelClient
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import NIOCore
import Testing

/// How connections end (protocol.md "Connection life"): no AUTH in time, idle, a full server, shutdown.
/// The timeouts here are short so the tests are quick; the waits for the server only guard against a hang.
@Suite struct ConnectionLifecycleTests {
    @Test func aConnectionThatDoesNotAuthenticateInTimeGetsByeAuthTimeout() async throws {
        try await TestServer.run(configuration: ServerConfiguration(authTimeout: .milliseconds(300))) { port in
            let client = try await LineClient.connectAndGreet(port: port)
            let lines = try #require(await client.linesUntilClosed(timeout: .seconds(15)), "the connection stayed open")
            #expect(lines.map(\.raw) == [#"* BYE {"reason":"auth_timeout"}"#])
        }
    }

    @Test func pingDoesNotStopTheAuthTimeout() async throws {
        try await TestServer.run(configuration: ServerConfiguration(authTimeout: .milliseconds(300))) { port in
            let client = try await LineClient.connectAndGreet(port: port)
            var lines: [LineClient.Line] = []
            pinging: for round in 0..<100 {
                do {
                    try await client.send("k\(round) PING")
                } catch {
                    // The server closed the connection while this PING was on its way.
                    _ = await client.linesUntilClosed().map { lines.append(contentsOf: $0) }
                    break pinging
                }
                while true {
                    let line: LineClient.Line
                    do {
                        line = try await client.nextLine(timeout: .seconds(15))
                    } catch LineClientError.closed {
                        break pinging
                    }
                    lines.append(line)
                    if line.tag == "k\(round)" { break }
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(lines.last?.raw == #"* BYE {"reason":"auth_timeout"}"#, "\(lines.suffix(3))")
        }
    }

    @Test func anIdleConnectionGetsByeIdle() async throws {
        let user = try await LaurelTestDatabase.createUser("idle")
        try await TestServer.run(configuration: ServerConfiguration(idleTimeout: .seconds(1))) { port in
            let authenticated = try await LineClient.authenticated(port: port, token: user.token)
            let anonymous = try await LineClient.connectAndGreet(port: port)
            for client in [authenticated, anonymous] {
                let lines = try #require(await client.linesUntilClosed(timeout: .seconds(15)), "the connection stayed open")
                #expect(lines.withoutStoredPushes.map(\.raw) == [#"* BYE {"reason":"idle"}"#])
            }
        }
    }

    @Test func pingKeepsAConnectionAlivePastTheIdleTimeout() async throws {
        let user = try await LaurelTestDatabase.createUser("keepalive")
        // Two seconds of idle timeout leave a busy machine room between two pings 150 ms apart.
        try await TestServer.run(configuration: ServerConfiguration(idleTimeout: .seconds(2))) { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let clock = ContinuousClock()
            let start = clock.now
            var pings = 0
            while clock.now - start < .seconds(5) {
                let answer = try await client.request("PING")
                #expect(answer.kind == "OK", "\(answer)")
                pings += 1
                try await Task.sleep(for: .milliseconds(150))
            }
            #expect(pings > 1)
            #expect(try await client.request("LOGS").kind == "OK", "the connection outlived two idle timeouts")
            let lines = try #require(await client.linesUntilClosed(timeout: .seconds(15)), "the connection stayed open once quiet")
            #expect(lines.withoutStoredPushes.map(\.raw) == [#"* BYE {"reason":"idle"}"#])
        }
    }

    @Test func theConnectionOverMaxConnectionsGetsByeTooManyConnections() async throws {
        try await TestServer.run(configuration: ServerConfiguration(maxConnections: 2)) { port in
            let first = try await LineClient.connectAndGreet(port: port)
            let second = try await LineClient.connectAndGreet(port: port)
            let third = try await LineClient.connect(port: port)
            let lines = try #require(await third.linesUntilClosed(timeout: .seconds(15)), "the third connection stayed open")
            #expect(lines.map(\.raw) == [#"* BYE {"reason":"too_many_connections"}"#], "sent instead of HELLO")
            #expect(try await first.pingSucceeds())
            #expect(try await second.pingSucceeds())

            // A freed slot takes a new connection again.
            _ = try await first.request("QUIT")
            _ = await first.linesUntilClosed()
            let admitted = try await Eventually.holds(timeout: .seconds(15), every: .milliseconds(50)) {
                let next = try await LineClient.connect(port: port)
                defer { Task { await next.close() } }
                return try await next.nextLine().kind == "HELLO"
            }
            #expect(admitted, "no connection was admitted after one closed")
        }
    }

    @Test func shutdownSaysByeToConnectedClients() async throws {
        let user = try await LaurelTestDatabase.createUser("shutdown")
        try await TestServer.withServer { server in
            let authenticated = try await LineClient.authenticated(port: server.port, token: user.token)
            let anonymous = try await LineClient.connectAndGreet(port: server.port)
            #expect(try await authenticated.request("LOG", ["activity": "pushups"]).kind == "OK")
            await server.beginShutdown()
            for client in [authenticated, anonymous] {
                let lines = try #require(await client.linesUntilClosed(timeout: .seconds(15)), "the connection stayed open")
                #expect(lines.withoutStoredPushes.map(\.raw) == [#"* BYE {"reason":"shutdown"}"#])
            }
            // Stopped accepting: a new connection is refused or closed without a greeting.
            if let late = try? await LineClient.connect(port: server.port) {
                let lines = await late.linesUntilClosed(timeout: .seconds(15))
                #expect(lines?.contains { $0.kind == "HELLO" } != true, "a connection was greeted after shutdown began")
            }
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 1)
    }

    @Test func shutdownAnswersTheRequestsAlreadyReceivedFirst() async throws {
        let user = try await LaurelTestDatabase.createUser("shutdown-inflight")
        let prefix = "s\(UUID().uuidString.prefix(6))-"
        try await TestServer.withServer { server in
            let client = try await LineClient.authenticated(port: server.port, token: user.token)
            let tags = (1...30).map { "\(prefix)\($0)" }
            try await client.sendRaw(tags.map { "\($0) LOG {\"activity\":\"lunges\",\"id\":\"\($0)\"}\n" }.joined())
            let first = try await client.response(tagged: tags[0]).response
            #expect(first.kind == "OK", "\(first)")
            await server.beginShutdown()
            let rest = try #require(await client.linesUntilClosed(timeout: .seconds(20)), "the connection stayed open")
            #expect(rest.withoutStoredPushes.last?.raw == #"* BYE {"reason":"shutdown"}"#)
            let answers = rest.filter { $0.tag != "*" }
            #expect(answers.map(\.tag) == Array(tags.dropFirst()), "every request received before the shutdown is answered, in order")
            #expect(answers.allSatisfy { $0.kind == "OK" }, "\(answers.filter { $0.kind != "OK" }.prefix(3))")
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 30)
    }

    @Test func quitAnswersOkThenSaysByeQuit() async throws {
        let user = try await LaurelTestDatabase.createUser("quit")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await client.send("q1 QUIT")
            let lines = try #require(await client.linesUntilClosed(timeout: .seconds(15)))
            #expect(lines.map(\.raw) == ["q1 OK", #"* BYE {"reason":"quit"}"#])
        }
    }

    /// With `--max-in-flight 2`, the server stops reading the connection again and again while 600 PINGs arrive in
    /// 30 writes; every one is answered, in order, and the connection stays usable.
    @Test(.timeLimit(.minutes(1))) func requestsFarBeyondTheInFlightLimitAreAllAnsweredInOrder() async throws {
        try await TestServer.run(configuration: ServerConfiguration(maxRequestsInFlight: 2)) { port in
            let client = try await LineClient.connectAndGreet(port: port)
            for write in 0..<30 {
                try await client.sendRaw((0..<20).map { "p\(write * 20 + $0) PING\n" }.joined())
            }
            for index in 0..<600 {
                let line = try await client.nextLine(timeout: .seconds(15))
                #expect(line.tag == "p\(index)" && line.isOK, "\(line)")
            }
            #expect(try await client.request("PING").isOK)
        }
    }

    /// A client that closes its sending side after its requests still reads their answers; then the server closes.
    @Test func aClientThatClosesItsSideGetsItsAnswersFirst() async throws {
        try await TestServer.run { port in
            let client = try await LineClient.connectAndGreet(port: port)
            try await client.sendRaw("h1 PING\nh2 PING\n")
            try await client.connection.channel.close(mode: .output)
            let lines = try #require(await client.linesUntilClosed(timeout: .seconds(15)), "the connection stayed open")
            #expect(lines.map { "\($0.tag) \($0.kind)" } == ["h1 OK", "h2 OK"], "\(lines)")
        }
    }
}
