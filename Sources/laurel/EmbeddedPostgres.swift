import Foundation
import Logging
import Subprocess
import SystemPackage
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A private PostgreSQL cluster under `./.laurel/` for running Laurel with no database configured: created with
/// initdb on first use, started with pg_ctl on a loopback port, stopped again when the server exits. When the
/// process runs as root it runs PostgreSQL as the `postgres` user, because PostgreSQL refuses to run as root.
final class EmbeddedPostgres: Sendable {
    let directory: URL
    let logger: Logger
    private let startedByUs = Mutex(false)

    static let databaseName = "laurel"
    static let preferredPort = 54329

    init(directory: URL, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    var dataDirectory: URL { directory.appendingPathComponent("postgres", isDirectory: true) }
    var logFile: URL { directory.appendingPathComponent("postgres.log") }

    /// Makes sure the cluster exists and runs, and returns the URL of its `laurel` database.
    func start() async throws -> String {
        let tools = try PostgresTools.locate()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let runAsPostgres = geteuid() == 0
        if runAsPostgres { try await tools.run("/bin/chown", ["-R", "postgres", directory.path]) }
        if !FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) {
            logger.info("creating the embedded PostgreSQL cluster", metadata: ["directory": "\(dataDirectory.path)"])
            try await tools.run(tools.binary("initdb"), ["-D", dataDirectory.path, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C"],
                          asPostgres: runAsPostgres)
        }
        let port: Int
        if let running = runningPort() {
            port = running
            logger.info("using the embedded PostgreSQL cluster that is already running", metadata: ["port": "\(port)"])
        } else {
            port = FreePort.find(preferring: Self.preferredPort)
            try await tools.run(tools.binary("pg_ctl"), [
                "-D", dataDirectory.path, "-l", logFile.path, "-w", "-t", "60",
                "-o", "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1", "start",
            ], asPostgres: runAsPostgres)
            startedByUs.withLock { $0 = true }
            logger.info("started the embedded PostgreSQL cluster", metadata: ["port": "\(port)", "log": "\(logFile.path)"])
        }
        let exists = try await tools.output(tools.binary("psql"), [
            "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", "postgres", "-Atc",
            "SELECT 1 FROM pg_database WHERE datname = '\(Self.databaseName)'",
        ])
        if exists.trimmingCharacters(in: .whitespacesAndNewlines) != "1" {
            try await tools.run(tools.binary("createdb"), ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", Self.databaseName])
        }
        return "postgresql://postgres@127.0.0.1:\(port)/\(Self.databaseName)"
    }

    /// Stops the cluster if this process started it.
    func stop() async {
        guard startedByUs.withLock({ $0 }), let tools = try? PostgresTools.locate() else { return }
        do {
            try await tools.run(tools.binary("pg_ctl"), ["-D", dataDirectory.path, "-m", "fast", "-w", "stop"], asPostgres: geteuid() == 0)
            logger.info("stopped the embedded PostgreSQL cluster")
        } catch {
            logger.error("could not stop the embedded PostgreSQL cluster", metadata: ["error": "\(error)"])
        }
    }

    /// The port of a postmaster already running on this data directory (line 4 of postmaster.pid), if it is alive.
    private func runningPort() -> Int? {
        let pidFile = dataDirectory.appendingPathComponent("postmaster.pid")
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 3, let pid = Int32(lines[0]), kill(pid, 0) == 0, let port = Int(lines[3]) else { return nil }
        return port
    }
}

/// The PostgreSQL server programs of the machine (Debian keeps them in /usr/lib/postgresql/VERSION/bin).
struct PostgresTools {
    let binDirectory: String

    static func locate() throws -> PostgresTools {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
            return PostgresTools(binDirectory: "\(root)/\(version)/bin")
        }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(directory)/initdb") {
            return PostgresTools(binDirectory: String(directory))
        }
        throw SettingError("PostgreSQL's server programs (initdb, pg_ctl) were not found; install the postgresql package or configure --database-url")
    }

    func binary(_ name: String) -> String { "\(binDirectory)/\(name)" }

    func run(_ program: String, _ arguments: [String], asPostgres: Bool = false) async throws {
        let (status, output) = try await execute(program, arguments, asPostgres: asPostgres)
        guard status == 0 else {
            throw SettingError("\((program as NSString).lastPathComponent) failed (exit \(status)): \(output.suffix(2000))")
        }
    }

    func output(_ program: String, _ arguments: [String]) async throws -> String {
        let (status, output) = try await execute(program, arguments, asPostgres: false)
        guard status == 0 else { throw SettingError("\((program as NSString).lastPathComponent) failed (exit \(status)): \(output)") }
        return output
    }

    /// Runs a program to completion and collects what it printed, standard output and error together.
    private func execute(_ program: String, _ arguments: [String], asPostgres: Bool) async throws -> (Int32, String) {
        // pg_ctl starts the server with its output sent to the log file (-l), so the pipe ends when pg_ctl does.
        let (path, arguments) = asPostgres ? ("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments) : (program, arguments)
        let result = try await Subprocess.run(
            .path(FilePath(path)), arguments: Arguments(arguments), input: .none, output: .string(limit: 1 << 22),
            error: .combinedWithOutput)
        let status: Int32 = switch result.terminationStatus {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
        return (status, result.standardOutput)
    }
}

/// A free TCP port on the loopback interface, the preferred one when it is free.
enum FreePort {
    static func find(preferring preferred: Int) -> Int {
        if isFree(preferred) { return preferred }
        return bindEphemeral() ?? preferred
    }

    static func isFree(_ port: Int) -> Bool {
        withSocket { fd in bind(fd, port: port) != nil } ?? false
    }

    private static func bindEphemeral() -> Int? {
        withSocket { fd in bind(fd, port: 0) } ?? nil
    }

    private static func withSocket<T>(_ body: (Int32) -> T) -> T? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return body(fd)
    }

    private static func bind(_ fd: Int32, port: Int) -> Int? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
