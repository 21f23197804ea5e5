import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `laurel` executable, run as a child process against the test database, for what an in-process
/// server cannot show: a `kill -9`, exit codes, the command line. Its standard error is collected to find the
/// `listening on HOST:PORT` line and to explain failures.
final class ServerProcess: Sendable {
    private let process: Process
    private let stderr = CollectedOutput()
    private let exit: Task<Int32, Never>

    /// Starts `laurel serve` on a free port and waits until it logs that it listens, and, when a metrics port is
    /// given, that its metrics endpoint does too (that endpoint binds on its own, after or before the protocol's
    /// port). The WebSocket endpoint is off unless a port is given (`--ws-port 0` turns it off), and so is the
    /// limit on failed AUTHs per address.
    static func start(
        arguments extra: [String] = [], metricsPort: Int = 0, webSocketPort: Int = 0
    ) async throws -> (process: ServerProcess, port: Int) {
        let server = try ServerProcess(arguments: [
            "serve", "--database-url", try LaurelTestDatabase.url(), "--port", "0", "--ws-port", String(webSocketPort),
            "--metrics-port", String(metricsPort),
            "--db-pool-size", "4", "--no-demo-user", "--log-level", "info",
            // Tests all connect from 127.0.0.1 (see TestServer); one about the limit passes its own, which wins.
            "--auth-failure-burst", "0",
        ] + extra)
        let port = try await server.listeningPort()
        if metricsPort != 0 { try await server.waitForMetricsEndpoint() }
        return (server, port)
    }

    private init(arguments: [String]) throws {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let (exits, exited) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { finished in
            exited.yield(finished.terminationStatus)
            exited.finish()
        }
        try process.run()
        self.process = process
        self.exit = Task {
            var iterator = exits.makeAsyncIterator()
            return await iterator.next() ?? -1
        }
        // A thread of its own reads standard error to its end, so the child never blocks on a full pipe.
        let reading = errors.fileHandleForReading
        let collected = stderr
        Thread {
            while true {
                let data = reading.availableData
                if data.isEmpty { break }
                collected.append(data)
            }
        }.start()
    }

    var pid: Int32 { process.processIdentifier }

    /// Everything the server wrote to standard error so far.
    var errorOutput: String { stderr.text }

    private func listeningPort() async throws -> Int {
        var port: Int?
        let started = try await Eventually.holds(timeout: .seconds(60), every: .milliseconds(50)) {
            port = Self.port(in: errorOutput)
            return port != nil || !process.isRunning
        }
        guard started, let port else {
            send(SIGKILL)
            throw ServerProcessError.didNotStart(output: errorOutput)
        }
        return port
    }

    private func waitForMetricsEndpoint() async throws {
        let serving = try await Eventually.holds(timeout: .seconds(60), every: .milliseconds(20)) {
            errorOutput.contains("metrics on http://") || !process.isRunning
        }
        guard serving, process.isRunning else {
            send(SIGKILL)
            throw ServerProcessError.didNotStart(output: errorOutput)
        }
    }

    /// The port of the first `listening on HOST:PORT` line.
    static func port(in output: String) -> Int? {
        for line in output.split(separator: "\n") {
            guard let range = line.range(of: "listening on ") else { continue }
            let address = line[range.upperBound...].prefix { !$0.isWhitespace }
            guard let colon = address.lastIndex(of: ":") else { continue }
            return Int(address[address.index(after: colon)...])
        }
        return nil
    }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status (or the number of the signal that ended it), once the process has ended.
    func exitStatus(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let exit = self.exit
        return try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask { await exit.value }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let status = try await group.next() ?? nil else { throw ServerProcessError.stillRunning }
            return status
        }
    }

    var terminationReason: Process.TerminationReason { process.terminationReason }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The `laurel` executable built beside the test bundle (`swift build --build-tests` builds both), else in
    /// the package's `.build/debug`.
    /// Runs `laurel` with `arguments` to its end: its exit status, standard output and standard error.
    static func runCommand(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes read to their end before waiting, so a full pipe never blocks the child.
        let errorData = Mutex(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        Thread {
            errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() }
            errorsRead.signal()
        }.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorsRead.wait()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), errorData.withLock { String(decoding: $0, as: UTF8.self) })
    }

    static func executable(file: String = #filePath) throws -> URL {
        var candidates: [URL] = []
        if let bundle = CommandLine.arguments.first {
            let runner = URL(fileURLWithPath: bundle).resolvingSymlinksInPath()
            candidates.append(runner.deletingLastPathComponent().appendingPathComponent("laurel"))
            // On macOS the runner sits inside the .xctest bundle.
            candidates.append(runner.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("laurel"))
        }
        candidates.append(RepositoryRoot.url(file: file).appendingPathComponent(".build/debug/laurel"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw ServerProcessError.executableMissing(searched: candidates.map(\.path))
        }
        return found
    }
}

/// The repository the tests were built from, found from a source file's path.
enum RepositoryRoot {
    static func url(file: String = #filePath) -> URL {
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return directory }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: file).deletingLastPathComponent()
    }
}

/// What a child process wrote to one of its streams, filled in by a reading thread.
final class CollectedOutput: Sendable {
    private let collected = Mutex("")

    var text: String { collected.withLock { $0 } }

    func append(_ data: Data) {
        collected.withLock { $0 += String(decoding: data, as: UTF8.self) }
    }
}

enum ServerProcessError: Error, CustomStringConvertible {
    case executableMissing(searched: [String])
    case didNotStart(output: String)
    case stillRunning

    var description: String {
        switch self {
        case .executableMissing(let searched):
            "the laurel executable was not found (build it with swift build --build-tests); looked at \(searched)"
        case .didNotStart(let output): "laurel serve did not report listening; its output:\n\(output)"
        case .stillRunning: "the server process did not exit"
        }
    }
}
