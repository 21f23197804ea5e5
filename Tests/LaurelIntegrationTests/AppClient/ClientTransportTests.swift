import Foundation
import LaurelClient
import LaurelServer
import NIOSSL
import Testing

/// The client library over each transport the server offers: WebSocket (`--ws-port`) and TLS on the client port,
/// with WebSocket over TLS (`wss://`) too. Requests, the outbox and pushes work the same on each.
@Suite struct ClientTransportTests {
    /// Logs through the outbox, reads the profile, and sees the first unlock pushed.
    static func exercise(_ client: LaurelClient, user: TestUser) async throws {
        let pushes = PushCollector(client)
        await client.start()
        let entry = try await client.record(.log(activity: "squats", amount: 3))
        guard case .acknowledged? = await client.outcome(of: entry.id) else {
            Issue.record("the outbox entry was not acknowledged")
            return
        }
        #expect(try await client.send(Verb.Profile()).totals.logs == 1)
        try await AppClient.eventually("the UNLOCK push") { pushes.pushes.contains { $0.kind == "UNLOCK" } }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 1)
        await client.stop()
    }

    @Test func overWebSocket() async throws {
        let user = try await LaurelTestDatabase.createUser("client-ws")
        var configuration = ServerConfiguration(port: 0)
        configuration.webSocketPort = 0
        try await TestServer.withServer(configuration: configuration) { server in
            let port = try #require(server.webSocketPort)
            try await Self.exercise(try AppClient.make(port: port, token: user.token, transport: .webSocket()), user: user)
        }
    }

    @Test(arguments: [LaurelTransport.tcp, .webSocket()]) func overTLS(transport: LaurelTransport) async throws {
        let user = try await LaurelTestDatabase.createUser(transport == .tcp ? "client-tls" : "client-wss")
        let files = try TestCertificate.make()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        var configuration = ServerConfiguration(port: 0)
        configuration.webSocketPort = 0
        configuration.tls = try NIOSSLContext(configuration: .makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(files.certificate.path).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: files.key.path, format: .pem))))
        var trusting = TLSConfiguration.makeClientConfiguration()
        trusting.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(files.certificate.path))
        let tls = trusting
        try await TestServer.withServer(configuration: configuration) { server in
            let port = transport == .tcp ? server.port : try #require(server.webSocketPort)
            try await Self.exercise(try AppClient.make(port: port, token: user.token, transport: transport, tls: tls), user: user)
        }
    }
}
