import Foundation

/// One numbered schema change from `sql/migrations/`: `0001_baseline.sql` is version 1, named `baseline`. Each is
/// applied once, in version order, and recorded.
public struct Migration: Sendable, Equatable {
    public var version: Int
    public var name: String
    public var sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

/// A function or view of the schema from `sql/functions/` or `sql/views/`, one a file named after it: applied again
/// whenever its text changes (the "repeatable migration" of Flyway and Liquibase), so that a function reads in one
/// file as it is now instead of in every migration that ever changed it.
public struct RepeatableObject: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case function, view
    }

    public var kind: Kind
    /// The file's name without `.sql`: the object's name in schema `laurel`.
    public var name: String
    public var sql: String

    public init(kind: Kind, name: String, sql: String) {
        self.kind = kind
        self.name = name
        self.sql = sql
    }

    /// How the object is recorded in `laurel.schema_objects`.
    var key: String { "\(kind.rawValue)s/\(name)" }
}

/// The schema as the files of `sql/` describe it: numbered migrations for tables, and a file per function and view.
public struct SchemaFiles: Sendable, Equatable {
    public var migrations: [Migration]
    public var functions: [RepeatableObject]
    public var views: [RepeatableObject]

    public init(migrations: [Migration], functions: [RepeatableObject] = [], views: [RepeatableObject] = []) {
        self.migrations = migrations
        self.functions = functions
        self.views = views
    }

    /// The files of an `sql/` folder. Migration files that do not start with digits and `_` are ignored; two files
    /// with one version are an error.
    public static func load(from directory: URL) throws -> SchemaFiles {
        var migrations: [Migration] = []
        for (stem, sql) in try files(in: directory.appendingPathComponent("migrations")) {
            guard let separator = stem.firstIndex(of: "_"), let version = Int(stem[..<separator]) else { continue }
            migrations.append(Migration(version: version, name: String(stem[stem.index(after: separator)...]), sql: sql))
        }
        migrations.sort { $0.version < $1.version }
        for (earlier, later) in zip(migrations, migrations.dropFirst()) where earlier.version == later.version {
            throw MigrationError.duplicateVersion(earlier.version)
        }
        let functions = try files(in: directory.appendingPathComponent("functions")).map { RepeatableObject(kind: .function, name: $0.stem, sql: $0.sql) }
        let views = try files(in: directory.appendingPathComponent("views")).map { RepeatableObject(kind: .view, name: $0.stem, sql: $0.sql) }
        return SchemaFiles(migrations: migrations, functions: functions, views: views)
    }

    /// The `.sql` files of a folder by name (none when the folder does not exist).
    private static func files(in directory: URL) throws -> [(stem: String, sql: String)] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }.sorted().map { file in
            (String(file.dropLast(4)), try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8))
        }
    }

    /// The schema shipped with the server: the `sql/` folder named by `LAUREL_SQL_DIR`, else the nearest `sql/` folder
    /// beside the executable or above it (the repository when built from source, `/app/sql` in the container image).
    public static func shipped() throws -> SchemaFiles {
        try load(from: shippedDirectory())
    }

    public static func shippedDirectory() throws -> URL {
        if let override = ProcessInfo.processInfo.environment["LAUREL_SQL_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("sql", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("migrations/0001_baseline.sql").path) {
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
    case objectFailed(file: String, reason: String)

    public var description: String {
        switch self {
        case .duplicateVersion(let version): "two migrations have version \(version)"
        case .notShipped: "the sql/ folder with the migrations was not found beside or above the executable; set LAUREL_SQL_DIR"
        case .failed(let version, let name, let reason): "migration \(version) (\(name)) failed: \(reason)"
        case .objectFailed(let file, let reason): "sql/\(file).sql failed: \(reason)"
        }
    }
}
