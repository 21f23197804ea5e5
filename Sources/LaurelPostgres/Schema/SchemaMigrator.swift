import Logging

/// Brings a database up to the newest schema: each pending migration runs once, in version order, in a
/// transaction of its own, and is recorded in `laurel.schema_migrations`. An advisory lock keeps two instances
/// that start at the same time from applying the same migration twice.
public struct SchemaMigrator: Sendable {
    let pool: PostgresPool
    let logger: Logger

    /// An arbitrary constant shared by every Laurel instance: the key of the migration lock.
    static let lockKey = 7_420_001

    public init(pool: PostgresPool, logger: Logger) {
        self.pool = pool
        self.logger = logger
    }

    /// Applies what is pending and returns the versions applied now.
    @discardableResult
    public func migrate(_ migrations: [Migration]) async throws -> [Int] {
        var applied: [Int] = []
        for migration in migrations {
            let ran = try await pool.transaction { connection -> Bool in
                try connection.execute("SELECT pg_advisory_xact_lock($1::bigint)", [.int(Self.lockKey)])
                try connection.simpleQuery(
                    """
                    CREATE SCHEMA IF NOT EXISTS laurel;
                    CREATE TABLE IF NOT EXISTS laurel.schema_migrations (
                        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
                    """)
                let done = try connection.query("SELECT 1 FROM laurel.schema_migrations WHERE version = $1::integer", [.int(migration.version)])
                guard done.count == 0 else { return false }
                do {
                    try connection.simpleQuery(migration.sql)
                } catch {
                    throw MigrationError.failed(version: migration.version, name: migration.name, reason: String(describing: error))
                }
                try connection.execute(
                    "INSERT INTO laurel.schema_migrations (version, name) VALUES ($1::integer, $2::text)",
                    [.int(migration.version), .text(migration.name)])
                return true
            }
            if ran {
                logger.info("applied migration", metadata: ["migration.version": "\(migration.version)", "migration.name": "\(migration.name)"])
                applied.append(migration.version)
            }
        }
        return applied
    }
}
