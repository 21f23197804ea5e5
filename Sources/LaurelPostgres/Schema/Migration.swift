import Foundation

/// One numbered schema change from `sql/`: `0001_foundation.sql` is version 1, named `foundation`.
public struct Migration: Sendable, Equatable {
    public var version: Int
    public var name: String
    public var sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The migrations in a folder, in version order. Files that do not start with digits and `_` are ignored;
    /// two files with one version are an error.
    public static func load(from directory: URL) throws -> [Migration] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }
        var migrations: [Migration] = []
        for file in files {
            let stem = file.dropLast(4)
            guard let separator = stem.firstIndex(of: "_"), let version = Int(stem[..<separator]) else { continue }
            let sql = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            migrations.append(Migration(version: version, name: String(stem[stem.index(after: separator)...]), sql: sql))
        }
        migrations.sort { $0.version < $1.version }
        for (earlier, later) in zip(migrations, migrations.dropFirst()) where earlier.version == later.version {
            throw MigrationError.duplicateVersion(earlier.version)
        }
        return migrations
    }

    /// The migrations shipped with the server: the `sql/` folder named by `LAUREL_SQL_DIR`, else the nearest
    /// `sql/` folder beside the executable or above it (the repository when built from source, `/app/sql` in
    /// the container image).
    public static func shipped() throws -> [Migration] {
        try load(from: shippedDirectory())
    }

    public static func shippedDirectory() throws -> URL {
        if let override = ProcessInfo.processInfo.environment["LAUREL_SQL_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("sql", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("0001_foundation.sql").path) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        throw MigrationError.notShipped
    }
}

public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    case duplicateVersion(Int)
    case notShipped
    case failed(version: Int, name: String, reason: String)

    public var description: String {
        switch self {
        case .duplicateVersion(let version): "two migrations have version \(version)"
        case .notShipped: "the sql/ folder with the migrations was not found beside or above the executable; set LAUREL_SQL_DIR"
        case .failed(let version, let name, let reason): "migration \(version) (\(name)) failed: \(reason)"
        }
    }
}
