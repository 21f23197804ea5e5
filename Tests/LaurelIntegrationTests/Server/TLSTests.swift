import Foundation
import LaurelJSON
import LaurelProtocol
import LaurelServer
import NIOSSL
import Testing

/// TLS on the client port, as `laurel serve --tls-cert --tls-key` runs it: a client that verifies the server's
/// certificate authenticates, logs and receives the UNLOCK on its other connection; a plain-TCP client gets
/// nothing it could read as the protocol.
@Suite struct TLSTests {
    @Test func aTLSClientLogsAndReceivesItsUnlock() async throws {
        let files = try TestCertificate.make()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let user = try await LaurelTestDatabase.createUser("tls")
        let (server, port) = try await ServerProcess.start(arguments: ["--tls-cert", files.certificate.path, "--tls-key", files.key.path])
        defer { server.send(SIGKILL) }
        #expect(server.errorOutput.contains("(TLS)"), "\(server.errorOutput)")

        var client = TLSConfiguration.makeClientConfiguration()
        client.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(files.certificate.path))
        let tls = try NIOSSLContext(configuration: client)
        let phone = try await LineClient.authenticated(port: port, token: user.token, tls: tls, serverHostname: "localhost")
        let watch = try await LineClient.authenticated(port: port, token: user.token, tls: tls, serverHostname: "localhost")
        let logged = try await phone.request("LOG", ["activity": "pushups", "amount": 10])
        let unlocked = logged.okObject["unlocked"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } ?? []
        #expect(unlocked.contains("first_exercise"), "\(logged)")
        let unlock = try await watch.push("UNLOCK")
        #expect(unlock.object["id"]?.stringValue == "first_exercise", "\(unlock.raw)")

        // A plain-TCP client's request is not a TLS handshake: no HELLO, and the server ends the connection.
        let plain = try await LineClient.connect(port: port)
        try await plain.send("a1 PING")
        #expect(await plain.linesUntilClosed(timeout: .seconds(20))?.contains { $0.kind == "HELLO" } != true)
    }
}

extension TLSTests {
    /// A connection's lifecycle ends it through the connection's own ordered writer, which also works where a
    /// socket cannot be half-closed (TLS): answers to what was sent come first, then `BYE`, then nothing.
    @Test func theAuthTimeoutSaysByeAfterTheAnswersOverTLS() async throws {
        let files = try TestCertificate.make()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        var configuration = ServerConfiguration(port: 0)
        // Long enough for a TLS handshake on a busy machine: the test is about the order of what comes before BYE.
        configuration.authTimeout = .seconds(2)
        configuration.tls = try NIOSSLContext(configuration: .makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(files.certificate.path).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: files.key.path, format: .pem))))
        var client = TLSConfiguration.makeClientConfiguration()
        client.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(files.certificate.path))
        let tls = try NIOSSLContext(configuration: client)
        try await TestServer.run(configuration: configuration) { port in
            let idle = try await LineClient.connectAndGreet(port: port, tls: tls, serverHostname: "localhost")
            try await idle.sendRaw("p1 PING\np2 PROFILE\n")
            let lines = try #require(await idle.linesUntilClosed(timeout: .seconds(10)), "the server closed the connection")
            #expect(lines.map(\.tag) == ["p1", "p2", "*"], "\(lines.map(\.raw))")
            #expect(lines.last?.kind == "BYE" && lines.last?.object["reason"]?.stringValue == "auth_timeout", "\(lines.map(\.raw))")
        }
    }
}

/// A self-signed certificate for `localhost` and 127.0.0.1 and its key, made with the openssl command.
enum TestCertificate {
    static func make() throws -> (directory: URL, certificate: URL, key: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("laurel-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (certificate, key) = (directory.appendingPathComponent("cert.pem"), directory.appendingPathComponent("key.pem"))
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key.path, "-out", certificate.path,
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0, "openssl could not make a certificate")
        return (directory, certificate, key)
    }
}
