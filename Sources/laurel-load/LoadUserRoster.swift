import LaurelPostgres
import Logging

/// One user created for the run.
struct LoadUser: Sendable {
    let index: Int
    let name: String
    let userID: Int
    let token: String
}

/// Creates the run's users through the admin SQL API (`laurel.create_user`) and removes them afterwards
/// (`laurel.delete_user`). Users are named `load-<run id>-<i>`, so concurrent and repeated runs never clash.
struct LoadUserRoster: Sendable {
    private let pool: PostgresPool
    private let runID: String
    /// Users per statement: one round trip for many users, yet batches small enough to keep both of the pool's
    /// connections busy, since creating a user costs the database tens of milliseconds.
    private let batchSize = 25

    init(connectionString: String, runID: String, logger: Logger) {
        self.pool = PostgresPool(
            configuration: PostgresConfiguration(connectionString: connectionString, applicationName: "laurel-load", connectTimeoutSeconds: 5),
            size: 2, logger: logger)
        self.runID = runID
    }

    private var namePrefix: String { "load-\(runID)-" }

    func create(count: Int) async throws -> [LoadUser] {
        let prefix = namePrefix
        let batches = stride(from: 0, to: count, by: batchSize).map { $0...min($0 + batchSize, count) - 1 }
        let created = try await withThrowingTaskGroup(of: [LoadUser].self) { group in
            for batch in batches {
                group.addTask {
                    try await pool.transaction { connection in
                        let rows = try connection.query("""
                            SELECT i, u.user_id, u.token
                              FROM generate_series($2::int, $3::int) AS i,
                                   LATERAL laurel.create_user($1::text || i::text, 'UTC') AS u
                             ORDER BY i
                            """, [.text(prefix), .int(batch.lowerBound), .int(batch.upperBound)])
                        return try rows.map { row in
                            let index = try row.int("i")
                            return LoadUser(index: index, name: prefix + String(index), userID: try row.int("user_id"), token: try row.string("token"))
                        }
                    }
                }
            }
            var users: [LoadUser] = []
            for try await batch in group { users.append(contentsOf: batch) }
            return users
        }
        return created.sorted { $0.index < $1.index }
    }

    /// Deletes the run's users with everything stored about them. It finds them by their name prefix, so it
    /// also cleans up after a creation that failed half-way.
    func removeAll() async throws -> Int {
        let prefix = namePrefix
        return try await pool.transaction { connection in
            try connection.query("""
                SELECT count(*) AS deleted FROM (
                    SELECT laurel.delete_user(u.name) FROM laurel.users AS u WHERE u.name LIKE $1::text || '%'
                ) AS deleted
                """, [.text(prefix)]).first?.int("deleted") ?? 0
        }
    }

    func close() async {
        await pool.close()
    }
}
