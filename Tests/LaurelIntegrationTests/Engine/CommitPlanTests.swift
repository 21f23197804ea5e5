import Foundation
import LaurelCore
import LaurelServer
import LaurelStore
import Testing
@testable import LaurelPostgres

/// `laurel.store_changes` keeps one plan per connection, made at its first call, usually while the tables are small.
/// Every stored row a commit touches must then be reached by key from the batch: a plan that walked a table (as a
/// join in the deletions once did) would cost every batch the whole table once the table is large. Counted, in
/// rows PostgreSQL read, not timed.
@Suite struct CommitPlanTests {
    @Test func aCommitReadsOnlyItsOwnUsersRowsHoweverTheTablesGrewAfterThePlanWasMade() async throws {
        try await LaurelTestDatabase.withFreshDatabase { pool in
            try await PostgresStore(pool: pool).installCatalog(try ShippedCatalogs.load("standfit"))
            let writer = try await Self.createUser("plan-writer", on: pool)
            let other = try await Self.createUser("plan-other", on: pool)
            try await pool.withConnection { connection in
                // The plan is made now, with empty tables.
                _ = try PostgresStore.storeCommits([UserCommitTests.commit(writer, version: 0, logID: "first")], on: connection)
                // Then the tables grow: another user's logs and unlocks.
                try connection.execute(
                    """
                    INSERT INTO laurel.logs (user_id, id, activity_id, amount, at, day, local_hour, response)
                    SELECT $1::bigint, 'other-' || n, 'squats', 5, now(), current_date, 12, '{}'::json
                      FROM generate_series(1, 4000) AS n
                    """, [.int(Int(other.id.rawValue))])
                try connection.execute(
                    """
                    INSERT INTO laurel.unlocks (user_id, achievement_id, unlocked_at)
                    SELECT $1::bigint, 'tpl.other.' || n, now() FROM generate_series(1, 4000) AS n
                    """, [.int(Int(other.id.rawValue))])

                // A commit that checks a new log's id, deletes a log and removes template unlocks, on the same
                // connection (so with the plan made before), in a transaction whose own counts are read.
                let commit = UserCommitTests.commit(writer, version: 1, logID: "second") { writes in
                    writes.deletedLog = "first"
                    writes.deletedUnlockPrefixes = ["tpl.gone."]
                }
                try connection.execute("BEGIN")
                let results = try PostgresStore.storeCommits([commit], on: connection)
                let rows = try Self.rowsRead(from: ["laurel.logs", "laurel.unlocks"], on: connection)
                try connection.execute("COMMIT")
                guard case .success(.committed(version: 2, lastSeq: _, factSeq: _, pushes: _)) = results[0] else {
                    Issue.record("not committed: \(results[0])")
                    return
                }
                #expect(rows < 50, "the commit read \(rows) rows of laurel.logs and laurel.unlocks (their indexes included)")
            }
            #expect(try await pool.withConnection { connection in
                try connection.query("SELECT count(*) AS n FROM laurel.logs WHERE user_id = $1::bigint AND deleted_at IS NOT NULL",
                                     [.int(Int(writer.id.rawValue))]).first?.int("n")
            } == 1)
        }
    }

    /// The version check reaches the batch's users' progress rows by key: with a plan made once many users exist (and
    /// PostgreSQL knows it), a join of the batch with `laurel.progress` would otherwise walk the table's key from its
    /// first user to the batch's last, every batch.
    @Test func aCommitReadsOnlyItsOwnUsersProgressRowHoweverManyUsersThereAre() async throws {
        try await LaurelTestDatabase.withFreshDatabase { pool in
            try await PostgresStore(pool: pool).installCatalog(try ShippedCatalogs.load("standfit"))
            try await pool.withConnection { connection in
                try connection.execute("SELECT count(*) FROM generate_series(1, 1500) AS n, laurel.create_user('many-' || n, 'UTC')")
                try connection.execute("ANALYZE laurel.progress")
            }
            // The newest user, so last by key.
            let writer = try await Self.createUser("plan-last", on: pool)
            try await pool.withConnection { connection in
                // The plan is made in this transaction, knowing of 1,500 users.
                try connection.execute("BEGIN")
                let results = try PostgresStore.storeCommits([UserCommitTests.commit(writer, version: 0, logID: "first")], on: connection)
                let rows = try Self.rowsRead(from: ["laurel.progress"], on: connection)
                try connection.execute("COMMIT")
                guard case .success(.committed(version: 1, lastSeq: _, factSeq: _, pushes: _)) = results[0] else {
                    Issue.record("not committed: \(results[0])")
                    return
                }
                #expect(rows < 20, "the commit read \(rows) rows of laurel.progress (its indexes included)")
            }
        }
    }

    /// What the tables held when a connection planned its commit statements.
    enum TablesWhenPlanned: CustomTestStringConvertible {
        /// Nothing yet: a fresh database, or one whose tables a `VACUUM` truncated.
        case empty
        /// Rows of users since deleted, with the statistics `ANALYZE` took then: every estimate one row, the pages
        /// still there.
        case emptiedAndAnalyzed

        var testDescription: String { self == .empty ? "empty" : "emptied and analyzed" }
    }

    /// A batch's commit does work in proportion to its parts, whatever PostgreSQL's statistics said when the
    /// connection planned it. Planned while they said `laurel.progress` held a row or none (a fresh database, or one
    /// emptied by deletions and analyzed), the version check compared each progress row with every part of the batch,
    /// and the completions did the like with the challenges: work growing with the square of the batch, which a burst
    /// (batches of hundreds) made into commits of tens of milliseconds, then larger batches, until the server fell
    /// behind for good. Counted in the rows the plans' join filters threw away and the rows read, not timed.
    @Test(arguments: [TablesWhenPlanned.empty, .emptiedAndAnalyzed])
    func aBatchCostsInProportionToItsParts(plannedOn tables: TablesWhenPlanned) async throws {
        let plans = ExplainedPlans()
        let batchSize = 60
        try await LaurelTestDatabase.withFreshDatabase(logger: plans.logger) { pool in
            try await PostgresStore(pool: pool).installCatalog(try ShippedCatalogs.load("standfit"))
            if tables == .emptiedAndAnalyzed {
                try await pool.withConnection { connection in
                    try connection.execute("SELECT count(*) FROM generate_series(1, 400) AS n, laurel.create_user('gone-' || n, 'UTC')")
                    try connection.execute(
                        """
                        INSERT INTO laurel.challenges (user_id, period, period_start, slot, kind, title, target, xp, chosen_at)
                        SELECT u.id, 'daily', current_date - d, 0, 'logs_today', 'Log 2 exercises today', 2, 20, now()
                          FROM laurel.users u, generate_series(0, 9) AS d
                        """)
                    try connection.execute("SELECT count(*) FROM (SELECT laurel.delete_user(u.name) FROM laurel.users AS u) AS deleted")
                    try connection.execute("ANALYZE")
                }
            }
            var created: [TestUser] = []
            for index in 0..<batchSize { created.append(try await Self.createUser("proportion-\(index)", on: pool)) }
            let users = created
            let day = LocalDay(year: 2026, month: 9, day: 21)!
            let choice = ChallengeChoice(
                slot: 0, kind: .logsToday, period: .daily, periodStart: day, target: 2, xp: 20, title: "Log 2 exercises today")
            try await pool.withConnection { connection in
                try plans.report(on: connection)
                // The first batch is this connection's first: its statements are planned now, on those statistics.
                let chosen = users.map { user in
                    UserCommitTests.commit(user, version: 0, logID: "first") { $0.challengesChosen = [StoredChallenge(choice: choice, completedAt: nil)] }
                }
                let completed = users.map { user in
                    UserCommitTests.commit(user, version: 1, logID: "second") { $0.challengesCompleted = [choice] }
                }
                for batch in [chosen, completed] {
                    plans.reset()
                    try connection.execute("BEGIN")
                    // Counted before and after: the counts a connection has not yet reported hold its earlier work too.
                    let before = try Self.rowsRead(from: ["laurel.progress", "laurel.challenges"], on: connection)
                    let results = try PostgresStore.storeCommits(batch, on: connection)
                    let rows = try Self.rowsRead(from: ["laurel.progress", "laurel.challenges"], on: connection) - before
                    try connection.execute("COMMIT")
                    let committed = results.filter { if case .success(.committed) = $0 { true } else { false } }
                    #expect(committed.count == batchSize, "\(results.first.map { "\($0)" } ?? "no outcome")")
                    #expect(rows < 8 * batchSize, "a batch of \(batchSize) read \(rows) rows of laurel.progress and laurel.challenges")
                    #expect(plans.reported.contains { $0.contains("Update on progress") }, "auto_explain reported the commit's plans")
                    let compared = plans.rowsRemovedByJoinFilters
                    #expect(compared < 4 * batchSize, "a batch of \(batchSize) threw away \(compared) rows in its joins' filters")
                }
            }
            #expect(try await pool.withConnection { connection in
                try connection.query("SELECT count(*) AS n FROM laurel.challenges WHERE completed_at IS NOT NULL").first?.int("n")
            } == batchSize)
        }
    }

    /// `PostgresStore.warmUp` leaves every statement a commit may run planned on each connection, the ones a batch
    /// runs only with challenges or writes other than LOGs included (each planned at its first call otherwise, some
    /// 7 ms, in a fresh instance's busiest second): their cached plans are in the connection's memory.
    @Test func aWarmedUpConnectionHasEveryCommitStatementPlanned() async throws {
        try await LaurelTestDatabase.withFreshDatabase { pool in
            let store = PostgresStore(pool: pool)
            try await store.warmUp()
            let planned = try await pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT count(*) FILTER (WHERE ident LIKE '%Only the fields the statement reads%') AS logs,
                           count(*) FILTER (WHERE ident LIKE '%INSERT INTO laurel.earlier_day_scores AS k%') AS scores,
                           count(*) FILTER (WHERE ident LIKE '%UPDATE laurel.challenges c SET completed_at%') AS completions,
                           count(*) FILTER (WHERE ident LIKE '%INSERT INTO laurel.challenges (user_id, period%') AS choices,
                           count(*) FILTER (WHERE ident LIKE '%INSERT INTO laurel.lesson_completions%') AS extras
                      FROM pg_backend_memory_contexts
                     -- (this statement's own text has the same words)
                     WHERE name = 'CachedPlan' AND ident NOT LIKE '%pg_backend_memory_contexts%'
                    """).first
            }
            let row = try #require(planned)
            #expect(try row.int("logs") == 1, "laurel.store_changes")
            #expect(try row.int("scores") == 1, "laurel.store_challenge_changes, earlier days' scores")
            #expect(try row.int("completions") == 1, "laurel.store_challenge_changes, completions")
            #expect(try row.int("choices") == 1, "laurel.store_challenge_changes, choices")
            #expect(try row.int("extras") == 1, "laurel.store_change_extras")
        }
    }

    /// The rows PostgreSQL has read from `tables` and their indexes on `connection` in its current transaction, and
    /// whatever of its earlier work it has not yet reported.
    static func rowsRead(from tables: [String], on connection: PostgresConnection) throws -> Int {
        let row = try connection.query(
            """
            SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(c.oid)), 0) AS read
              FROM pg_class c
             WHERE c.oid = ANY ($1::regclass[])
                OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = ANY ($1::regclass[]))
            """, [.text("{" + tables.joined(separator: ",") + "}")]).first
        return try #require(row).int("read")
    }

    static func createUser(_ prefix: String, on pool: PostgresPool) async throws -> TestUser {
        let name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        let row = try await pool.withConnection { connection in
            try connection.query("SELECT user_id, token FROM laurel.create_user($1::text, 'UTC')", [.text(name)]).first
        }
        let created = try #require(row)
        return TestUser(id: UserID(Int64(try created.int("user_id"))), name: name, token: try created.string("token"))
    }
}
