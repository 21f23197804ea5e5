import Foundation
import LaurelClient
import LaurelJSON
import LaurelProtocol
import LaurelServer
import NIOSSL
import Testing

/// The WebSocket endpoint (operations.md): the same lines, limits, ordering and pushes as TCP, one line per text
/// message; a message holding a LF or over the line limit answered and not run, the connection open; a binary
/// message closing the connection with 1003; a plain HTTP request refused; `wss://` when TLS is on.
@Suite struct WebSocketTests {
    static func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration(port: 0, maxLineBytes: 512)
        configuration.webSocketPort = 0
        return configuration
    }

    static func kind(_ line: String) -> String { line.split(separator: " ").dropFirst().first.map(String.init) ?? "" }

    @Test func aWebSocketClientLogsAndItsUnlockReachesEveryConnection() async throws {
        let user = try await LaurelTestDatabase.createUser("websocket")
        try await TestServer.withServer(configuration: Self.configuration()) { server in
            let webSocketPort = try #require(server.webSocketPort)
            // The client library over WebSocket: a line a message, the same AUTH, answers and pushes as over TCP.
            let browser = try await LineClient.authenticated(port: webSocketPort, token: user.token, transport: .webSocket())
            let phone = try await LineClient.authenticated(port: server.port, token: user.token)
            let logged = try await browser.request("LOG", ["activity": "pushups", "amount": 10])
            #expect(logged.kind == "OK" && logged.raw.contains("\"first_exercise\""), "\(logged)")
            // The push follows the answer on the WebSocket, and reaches the TCP connection of the same user.
            #expect(try await browser.push("UNLOCK").object["id"] == "first_exercise")
            #expect(try await phone.push("UNLOCK").object["id"] == "first_exercise")

            // The same by hand, message by message.
            let tab = try await WebSocketTestClient.connect(port: webSocketPort)
            #expect(tab.subprotocol == "laurel.v1")
            let hello = try await tab.message(startingWith: "* HELLO")
            #expect(hello?.hasPrefix("* HELLO {") == true)
            try await tab.send("a1 AUTH {\"token\":\"\(user.token)\"}")
            #expect(try await tab.message(startingWith: "a1 ").map(Self.kind) == "OK")
            // A line sent in three fragments is one request.
            try await tab.send("a3 PING", fragments: 3)
            #expect(try await tab.message(startingWith: "a3 ")?.hasPrefix("a3 OK {\"time\":") == true)
            // QUIT: the answer, BYE, then the close frame.
            try await tab.send("a4 QUIT")
            var rest: [WebSocketTestClient.Received] = []
            while let received = try await tab.next() {
                rest.append(received)
                if case .closed = received { break }
            }
            #expect(rest == [.text("a4 OK"), .text("* BYE {\"reason\":\"quit\"}"), .closed(code: 1000)])
        }
    }

    @Test func badMessagesAreAnsweredAndTheConnectionStaysOpen() async throws {
        try await TestServer.withServer(configuration: Self.configuration()) { server in
            let client = try await WebSocketTestClient.connect(port: try #require(server.webSocketPort), offering: [])
            #expect(client.subprotocol == nil)
            _ = try await client.message(startingWith: "* HELLO")
            try await client.send("a1 PING\na2 PING")
            #expect(try await client.message(startingWith: "* ERR") == "* ERR {\"code\":\"bad_request\",\"message\":\"a WebSocket message carries one line, without a line feed\"}")
            try await client.send("a3 PING " + String(repeating: "x", count: 600), fragments: 4)
            let tooLong = try await client.message(startingWith: "* ERR")
            #expect(tooLong?.contains("\"code\":\"line_too_long\"") == true, "\(tooLong ?? "")")
            try await client.send("a4 PING")
            #expect(try await client.message(startingWith: "a4 ")?.hasPrefix("a4 OK {\"time\":") == true)

            try await client.sendBinary([1, 2, 3])
            var closed: WebSocketTestClient.Received?
            while let received = try await client.next() {
                if case .closed = received { closed = received; break }
            }
            #expect(closed == .closed(code: 1003))
        }
    }

    @Test func plainHTTPGetsTheDemoPageOrIsToldToUpgrade() async throws {
        try await TestServer.withServer(configuration: Self.configuration()) { server in
            let port = try #require(server.webSocketPort)
            let other = try await LineClient.connect(port: port)
            try await other.send("GET /elsewhere HTTP/1.1\r\nHost: localhost\r\n\r")
            let refused = await other.linesUntilClosed(timeout: .seconds(10)) ?? []
            #expect(refused.first?.raw.hasPrefix("HTTP/1.1 426") == true, "\(refused.map(\.raw))")
            let page = try await LineClient.connect(port: port)
            try await page.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r")
            let lines = await page.linesUntilClosed(timeout: .seconds(10)) ?? []
            #expect(lines.first?.raw.hasPrefix("HTTP/1.1 200") == true)
            #expect(lines.contains { $0.raw.contains("<title>Laurel live demo</title>") })
        }
    }

    @Test func wssWhenTLSIsOn() async throws {
        let files = try TestCertificate.make()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let webSocketPort = try await HTTPProbe.freePort()
        let (server, _) = try await ServerProcess.start(
            arguments: ["--tls-cert", files.certificate.path, "--tls-key", files.key.path], webSocketPort: webSocketPort)
        defer { server.send(SIGKILL) }
        #expect(server.errorOutput.contains("wss://"), "\(server.errorOutput)")
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(files.certificate.path))
        let tls = try NIOSSLContext(configuration: configuration)
        let client = try await WebSocketTestClient.connect(port: webSocketPort, tls: tls)
        #expect(try await client.message(startingWith: "* HELLO") != nil)
        try await client.send("a1 PING")
        #expect(try await client.message(startingWith: "a1 ")?.hasPrefix("a1 OK {\"time\":") == true)
        // The client library over wss:// too.
        let user = try await LaurelTestDatabase.createUser("wss")
        let library = try await LineClient.authenticated(
            port: webSocketPort, token: user.token, transport: .webSocket(), tls: tls, serverHostname: "localhost")
        #expect(try await library.pingSucceeds())
    }
}
