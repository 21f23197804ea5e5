import Logging

/// Brings a database up to the schema of `sql/`: each pending migration runs once, in version order, in a
/// transaction of its own, and is recorded in `laurel.schema_migrations`; then every function and view whose file
/// changed is applied again, all in one transaction, and recorded with its text in `laurel.schema_objects`. An
/// advisory lock keeps two instances that start at the same time from applying the same change twice.
public struct SchemaMigrator: Sendable {
    let pool: PostgresPool
    let logger: Logger

    /// An arbitrary constant shared by every Laurel instance: the key of the migration lock.
    static let lockKey = 7_420_001

    public init(pool: PostgresPool, logger: Logger) {
        self.pool = pool
        self.logger = logger
    }

    /// Applies what is pending and returns the versions of the migrations applied now.
    @discardableResult
    public func migrate(_ schema: SchemaFiles) async throws -> [Int] {
        var applied: [Int] = []
        for migration in schema.migrations where try await apply(migration) {
            logger.info("applied migration", metadata: ["migration.version": "\(migration.version)", "migration.name": "\(migration.name)"])
            applied.append(migration.version)
        }
        let objects = try await applyChangedObjects(schema)
        if !objects.isEmpty { logger.info("applied functions and views", metadata: ["schema.objects": "\(objects.joined(separator: ", "))"]) }
        return applied
    }

    private func apply(_ migration: Migration) async throws -> Bool {
        try await pool.transaction { connection -> Bool in
            try Self.lock(connection)
            let done = try connection.query("SELECT 1 FROM laurel.schema_migrations WHERE version = $1::integer", [.int(migration.version)])
            guard done.count == 0 else { return false }
            do {
                try connection.simpleQuery(migration.sql)
            } catch {
                throw MigrationError.failed(version: migration.version, name: migration.name, reason: String(describing: error))
            }
            try connection.execute(
                "INSERT INTO laurel.schema_migrations (version, name) VALUES ($1::integer, $2::text)", [.int(migration.version), .text(migration.name)])
            return true
        }
    }

    /// Functions whose text changed are created again as they are now (bodies are checked when called, so their order
    /// does not matter); when any view changed, every view is dropped and created again, since one may use another.
    private func applyChangedObjects(_ schema: SchemaFiles) async throws -> [String] {
        try await pool.transaction { connection -> [String] in
            try Self.lock(connection)
            var recorded: [String: String] = [:]
            for row in try connection.query("SELECT file, body FROM laurel.schema_objects") {
                recorded[try row.string("file")] = try row.string("body")
            }
            let functions = schema.functions.filter { recorded[$0.key] != $0.sql }
            let viewsChanged = schema.views.contains { recorded[$0.key] != $0.sql }
            guard !functions.isEmpty || viewsChanged else { return [] }
            try connection.simpleQuery("SET LOCAL check_function_bodies = off")
            if viewsChanged {
                for view in schema.views.reversed() { try connection.simpleQuery("DROP VIEW IF EXISTS laurel.\(view.name) CASCADE") }
            }
            let applied = functions + (viewsChanged ? schema.views : [])
            for object in applied {
                do {
                    try connection.simpleQuery(object.sql)
                } catch {
                    throw MigrationError.objectFailed(file: object.key, reason: String(describing: error))
                }
                try connection.execute(
                    """
                    INSERT INTO laurel.schema_objects (file, body) VALUES ($1::text, $2::text)
                    ON CONFLICT (file) DO UPDATE SET body = EXCLUDED.body, applied_at = now()
                    """, [.text(object.key), .text(object.sql)])
            }
            return applied.map(\.key)
        }
    }

    /// Takes the migration lock for the transaction, and makes sure the tables that record what was applied exist.
    private static func lock(_ connection: PostgresConnection) throws {
        try connection.execute("SELECT pg_advisory_xact_lock($1::bigint)", [.int(lockKey)])
        try connection.simpleQuery(
            """
            CREATE SCHEMA IF NOT EXISTS laurel;
            CREATE TABLE IF NOT EXISTS laurel.schema_migrations (
                version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
            CREATE TABLE IF NOT EXISTS laurel.schema_objects (
                file text PRIMARY KEY, body text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
            """)
    }
}
