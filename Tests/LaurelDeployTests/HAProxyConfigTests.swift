import Foundation
import Testing

/// `deploy/haproxy.cfg`: HAProxy itself (Debian's `haproxy`) checks it, and the lines Laurel relies on are there:
/// TCP mode, timeouts above the server's idle timeout, the protocol, TLS and WebSocket ports passed through, and
/// every instance told the client's address with a PROXY v2 header.
@Suite struct HAProxyConfigTests {
    static func config() throws -> String {
        try RepositoryFiles.text("deploy/haproxy.cfg")
    }

    /// The config's lines without comments, each trimmed, empty ones left out.
    static func lines() throws -> [String] {
        try config().split(separator: "\n").map { $0.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func haproxyAcceptsTheConfig() throws {
        let haproxy = try #require(
            ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "haproxy is not installed (scripts/setup-machine installs it)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: haproxy)
        process.arguments = ["-c", "-f", RepositoryFiles.url("deploy/haproxy.cfg").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "haproxy -c: \(text)")
        #expect(!text.contains("[WARNING]"), "haproxy -c warns: \(text)")
    }

    @Test func everyInstanceIsToldTheClientsAddress() throws {
        let servers = try Self.lines().filter { $0.hasPrefix("server ") }
        #expect(servers.count >= 6, "two instances behind each of the three ports")
        for server in servers {
            #expect(server.split(separator: " ").contains("send-proxy-v2"), "\(server) does not send a PROXY v2 header")
        }
    }

    @Test func theProtocolTLSAndWebSocketPortsPassThroughAsTCP() throws {
        let lines = try Self.lines()
        #expect(lines.contains("mode tcp"), "the protocol is line-based TCP, not HTTP")
        for port in [7420, 7443, 7422] {
            #expect(lines.contains("bind :\(port)"), "no frontend on \(port)")
            #expect(lines.filter { $0.hasPrefix("server ") && $0.contains(":\(port) ") }.count >= 2, "instances on \(port)")
        }
        // Passthrough: the proxy holds no certificate and does not re-encrypt.
        #expect(!lines.contains { $0.hasPrefix("bind") && $0.contains(" ssl") })
        #expect(!lines.contains { $0.hasPrefix("server ") && $0.split(separator: " ").contains("ssl") })
    }

    @Test func theProxyOutlastsTheServersIdleTimeout() throws {
        let lines = try Self.lines()
        for side in ["client", "server"] {
            let timeout = try #require(lines.first { $0.hasPrefix("timeout \(side) ") }, "no timeout \(side)")
            let seconds = try #require(Self.seconds(String(timeout.split(separator: " ").last ?? "")), "\(timeout)")
            #expect(seconds > 300, "timeout \(side) must exceed the server's 300 s idle timeout so the server says BYE")
        }
    }

    /// HAProxy durations: a number with an optional unit (ms, s, m, h, d; milliseconds without one).
    static func seconds(_ text: String) -> Double? {
        let digits = text.prefix { $0.isNumber }
        guard let number = Double(digits) else { return nil }
        switch text.dropFirst(digits.count) {
        case "", "ms": return number / 1000
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86_400
        default: return nil
        }
    }
}
