import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Debian's `haproxy`, run in the foreground as a child process with the protocol port's part of
/// `deploy/haproxy.cfg`, in front of instances on this machine: the balancer an operator runs, for tests of what
/// clients see when an instance behind it dies. Its standard error is collected to explain failures.
final class HAProxyProcess: Sendable {
    private let process: Process
    private let output = CollectedOutput()
    private let configFile: URL
    /// The port clients connect to.
    let port: Int

    /// Starts haproxy in front of `instancePorts` and waits until its frontend accepts connections. A free port can
    /// be taken by someone else before haproxy binds it, so a start that fails is tried again on another one.
    static func start(instancePorts: [Int]) async throws -> HAProxyProcess {
        let executable = try #require(
            ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "haproxy is not installed (scripts/setup-machine installs it)")
        let deployed = try String(contentsOf: RepositoryRoot.url().appendingPathComponent("deploy/haproxy.cfg"), encoding: .utf8)
        var failures: [String] = []
        for _ in 0..<3 {
            let port = try await HTTPProbe.freePort()
            let config = try BalancerConfig.derived(from: deployed, frontendPort: port, instancePorts: instancePorts)
            let balancer = try HAProxyProcess(executable: executable, config: config, port: port)
            let accepts = try await balancer.acceptsConnections()
            // haproxy reads its config once, at start: the file can go now, whatever becomes of the process.
            try? FileManager.default.removeItem(at: balancer.configFile)
            if accepts { return balancer }
            balancer.stop()
            failures.append("\(config)\n\(balancer.errorOutput)")
        }
        throw HAProxyProcessError.didNotStart(output: failures.joined(separator: "\n---\n"))
    }

    private init(executable: String, config: String, port: Int) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("laurel-haproxy-\(UUID().uuidString).cfg")
        try config.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // -db: stay in the foreground, not daemonised, so the process is ours to stop.
        process.arguments = ["-f", file.path, "-db"]
        process.standardInput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardOutput = errors
        process.standardError = errors
        try process.run()
        self.process = process
        self.configFile = file
        self.port = port
        let reading = errors.fileHandleForReading
        let output = self.output
        Thread {
            while true {
                let data = reading.availableData
                if data.isEmpty { break }
                output.append(data)
            }
        }.start()
    }

    /// What haproxy wrote so far: its alerts, and a warning each time a server goes down or comes back.
    var errorOutput: String { output.text }

    var isRunning: Bool { process.isRunning }

    private func acceptsConnections() async throws -> Bool {
        var accepted = false
        _ = try await Eventually.holds(timeout: .seconds(20), every: .milliseconds(50)) {
            guard process.isRunning else { return true }
            guard let client = try? await LineClient.connect(port: port) else { return false }
            await client.close()
            accepted = true
            return true
        }
        return accepted && process.isRunning
    }

    /// Asks haproxy to stop (SIGTERM ends it at once, closing every connection).
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// The part of `deploy/haproxy.cfg` a test runs: its `global` and `defaults` sections and the protocol port's
/// frontend and backend as they are, with the frontend bound to a free local port and the two `server` lines
/// pointed at local instances, keeping their `check send-proxy-v2`.
enum BalancerConfig {
    static let keptSections: Set = ["global", "defaults", "frontend laurel", "backend laurel_instances"]

    static func derived(from deployed: String, frontendPort: Int, instancePorts: [Int]) throws -> String {
        var kept: [String] = []
        var keeping = false
        var servers = 0
        for line in deployed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let words = line.prefix { $0 != "#" }.split(separator: " ").map(String.init)
            if let first = line.first, !first.isWhitespace, first != "#" {
                keeping = keptSections.contains(words.joined(separator: " "))
                if keeping { kept.append((kept.isEmpty ? "" : "\n") + words.joined(separator: " ")) }
                continue
            }
            guard keeping, !words.isEmpty else { continue }
            switch words[0] {
            case "maxconn":
                // The deployment's 100,000 makes haproxy raise its file limit to about twice that, which a test
                // machine's limit refuses (haproxy exits); a handful of test clients need far fewer.
                kept.append("    maxconn 1000")
            case "bind":
                kept.append("    bind 127.0.0.1:\(frontendPort)")
            case "server":
                try #require(servers < instancePorts.count, "deploy/haproxy.cfg has more server lines than instances")
                try #require(words.count >= 3 && words.contains("check") && words.contains("send-proxy-v2"), "\(line)")
                // The deployment checks every 2 s and needs 3 failures to take an instance out; checking every
                // 200 ms with one failure enough takes a killed instance out of the rotation within moments, so
                // that reconnecting clients stop landing on it while the test runs.
                let options = words.dropFirst(3).joined(separator: " ")
                kept.append("    server \(words[1]) 127.0.0.1:\(instancePorts[servers]) \(options) inter 200ms fall 1 rise 1")
                servers += 1
            default:
                kept.append("    " + words.joined(separator: " "))
            }
        }
        try #require(servers == instancePorts.count, "deploy/haproxy.cfg names \(servers) instances, the test runs \(instancePorts.count)")
        return kept.joined(separator: "\n") + "\n"
    }
}

/// Why haproxy could not be put in front of the instances.
enum HAProxyProcessError: Error, CustomStringConvertible {
    case didNotStart(output: String)

    var description: String {
        switch self {
        case .didNotStart(let output): "haproxy did not accept connections; its output:\n\(output)"
        }
    }
}
