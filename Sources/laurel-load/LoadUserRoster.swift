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
    private let timeZone: String
    /// Users per statement: one round trip for many users, yet batches small enough to keep both of the pool's
    /// connections busy, since creating a user costs the database tens of milliseconds.
    private let batchSize = 25

    init(connectionString: String, runID: String, timeZone: String, logger: Logger) {
        self.pool = PostgresPool(
            configuration: PostgresConfiguration(connectionString: connectionString, applicationName: "laurel-load", connectTimeoutSeconds: 5),
            size: 2, logger: logger)
        self.runID = runID
        self.timeZone = timeZone
    }

    private var namePrefix: String { "load-\(runID)-" }

    func create(count: Int) async throws -> [LoadUser] {
        let prefix = namePrefix
        let timeZone = timeZone
        let batches = stride(from: 0, to: count, by: batchSize).map { $0...min($0 + batchSize, count) - 1 }
        let created = try await withThrowingTaskGroup(of: [LoadUser].self) { group in
            for batch in batches {
                group.addTask {
                    try await pool.transaction { connection in
                        let rows = try connection.query("""
                            SELECT i, u.user_id, u.token
                              FROM generate_series($2::int, $3::int) AS i,
                                   LATERAL laurel.create_user($1::text || i::text, $4::text) AS u
                             ORDER BY i
                            """, [.text(prefix), .int(batch.lowerBound), .int(batch.upperBound), .text(timeZone)])
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

    /// Stores `logs` past logs of `activity` for each user, spread evenly over the year before now, the way a
    /// long-standing user's history looks. The user's saved snapshot is dropped so the server's next load
    /// (at the user's AUTH) evaluates the whole history, as for a user it has not seen before.
    func seedHistory(of users: [LoadUser], logs: Int, activity: String) async throws {
        let prefix = namePrefix
        for user in users {
            try await pool.transaction { connection in
                try connection.execute("""
                    INSERT INTO laurel.logs (user_id, id, activity_id, amount, at, day, local_hour, response)
                    SELECT $1::bigint, $2::text || n, a.id, 1 + n % 20, t, (t AT TIME ZONE $5::text)::date,
                           extract(hour FROM t AT TIME ZONE $5::text)::smallint, '{}'
                      FROM generate_series(1, $3::int) AS n
                     CROSS JOIN LATERAL (SELECT now() - interval '1 day' - (n * interval '365 days' / $3::int) AS t) AS moment
                     JOIN laurel.activities a ON a.id = $4::text OR lower(a.name) = lower($4::text)
                    """, [.int(user.userID), .text("\(prefix)seed-"), .int(logs), .text(activity), .text(timeZone)])
                try connection.execute("DELETE FROM laurel.progress_snapshots WHERE user_id = $1::bigint", [.int(user.userID)])
            }
        }
    }

    /// Stores `count` past reminders for each user, spread evenly over the year before now (none answered: the seeded
    /// logs lie elsewhere), and drops the saved snapshot so that the server's next load walks them all.
    func seedReminders(of users: [LoadUser], count: Int) async throws {
        let prefix = namePrefix
        for user in users {
            try await pool.transaction { connection in
                try connection.execute("""
                    INSERT INTO laurel.reminders (user_id, id, at, day, window_minutes, answered, response)
                    SELECT $1::bigint, $2::text || n, t, (t AT TIME ZONE $4::text)::date, 30, false, '{}'
                      FROM generate_series(1, $3::int) AS n
                     CROSS JOIN LATERAL (SELECT now() - interval '1 day' - (n * interval '365 days' / $3::int) - interval '7 minutes' AS t) AS moment
                    """, [.int(user.userID), .text("\(prefix)reminder-"), .int(count), .text(timeZone)])
                try connection.execute("DELETE FROM laurel.progress_snapshots WHERE user_id = $1::bigint", [.int(user.userID)])
            }
        }
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
