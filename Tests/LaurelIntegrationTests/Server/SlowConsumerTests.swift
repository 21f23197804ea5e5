import Foundation
import LaurelJSON
import LaurelProtocol
import LaurelServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Clients that do not read what they are sent, or leave with requests pending, cannot hurt anyone else: a slow
/// consumer is disconnected (`BYE slow_consumer`) while the same user's other connection and other users keep
/// being answered; a connection's unread requests are dropped once it has gone; and SIGTERM ends the server
/// with exit code 0 even while such a client is connected.
@Suite struct SlowConsumerTests {
    /// Requests whose answers are large (the catalog's achievements with the user's progress), pipelined.
    static func manyLargeReads(_ count: Int) -> String {
        (0..<count).map { "r\($0) ACHIEVEMENTS\n" }.joined()
    }

    @Test func aClientThatDoesNotReadIsDisconnectedWhileOthersKeepAnswering() async throws {
        let user = try await LaurelTestDatabase.createUser("slow-reader")
        let other = try await LaurelTestDatabase.createUser("slow-bystander")
        let configuration = ServerConfiguration(port: 0, maxOutboundBytes: 256 * 1024)
        try await TestServer.withServer(configuration: configuration) { server in
            let sameUser = try await LineClient.authenticated(port: server.port, token: user.token)
            let bystander = try await LineClient.authenticated(port: server.port, token: other.token)
            let slow = try UnreadingClient(port: server.port)
            _ = await slow.send("a1 AUTH {\"token\":\"\(user.token)\"}\n")
            let flooding = Task { await slow.send(Self.manyLargeReads(3000)) }

            // While the slow client floods, everyone else, the same user included, is answered and pushed to.
            var answered = 0
            while server.counter("laurel_slow_consumer_disconnects_total") == 0, answered < 2000 {
                #expect(try await sameUser.pingSucceeds())
                #expect(try await bystander.pingSucceeds())
                answered += 1
            }
            #expect(try await Eventually.holds { server.counter("laurel_slow_consumer_disconnects_total") == 1 })
            #expect(await slow.drainUntilClosed(), "the server closed the slow consumer's connection")
            _ = await flooding.value
            let log = try await sameUser.request("LOG", ["activity": "pushups", "amount": 5])
            #expect(log.kind == "OK")
            #expect(try await bystander.pingSucceeds())
            #expect(server.counter("laurel_slow_consumer_disconnects_total") == 1, "nobody else was disconnected")
        }
    }

    @Test func requestsPendingWhenTheClientLeftAreNotExecuted() async throws {
        let user = try await LaurelTestDatabase.createUser("left-early")
        try await TestServer.withServer { server in
            let leaving = try await LineClient.authenticated(port: server.port, token: user.token)
            let logs = (0..<2000).map { #"l\#($0) LOG {"activity":"pushups","amount":1,"id":"left-\#($0)"}"# + "\n" }.joined()
            try await leaving.sendRaw(logs)
            // The server is working through them (it reads at most 64 ahead); the client leaves.
            #expect(try await leaving.response(tagged: "l0").response.kind == "OK")
            await leaving.close()
            #expect(try await Eventually.holds { server.counter("laurel_connections_open") == 0 })
            let stored = try await LaurelTestDatabase.logCount(of: user)
            let dropped = server.counter("laurel_requests_dropped_total")
            // Seen gone at the latest when an answer cannot be written: the requests read ahead and not started
            // are dropped, and what the client had not sent yet is never read.
            #expect(dropped > 0, "requests read ahead were dropped")
            #expect(stored < 200, "\(stored) of 2000 LOGs ran after the client left")
        }
    }

    @Test func sigtermEndsTheServerWithExitCodeZeroWhileAClientDoesNotRead() async throws {
        let user = try await LaurelTestDatabase.createUser("slow-at-shutdown")
        let (server, port) = try await ServerProcess.start(arguments: ["--shutdown-grace", "5s"])
        let slow = try UnreadingClient(port: port)
        _ = await slow.send("a1 AUTH {\"token\":\"\(user.token)\"}\n")
        let flooding = Task { await slow.send(Self.manyLargeReads(1000)) }
        let reader = try await LineClient.authenticated(port: port, token: user.token)
        #expect(try await reader.pingSucceeds())
        server.send(SIGTERM)
        #expect(try await server.exitStatus(timeout: .seconds(60)) == 0)
        flooding.cancel()
        _ = await flooding.value
    }
}
