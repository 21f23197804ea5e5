import Foundation
import LaurelPostgres
import Testing

/// `sql/migrations/0012_latest_day_scores.sql` on a database with day scores: each user's latest day moves to the
/// progress row, earlier days stay rows, and `laurel.day_scores` shows every row as it was.
@Suite struct LatestDayScoresMigrationTests {
    @Test func eachUsersLatestDayMovesToTheProgressRowAndTheViewShowsEveryRowAsBefore() async throws {
        let before = try SchemaFiles.shipped().migrations.filter { $0.version <= 11 }
        try await LaurelTestDatabase.withFreshDatabase(migratedTo: SchemaFiles(migrations: before)) { pool in
            let rows = """
                SELECT u.name || ' ' || d.day || ' ' || d.board || ' ' || d.score || ' ' || to_char(d.reached_at AT TIME ZONE 'UTC', 'HH24:MI:SS.US')
                  FROM laurel.day_scores d JOIN laurel.users u ON u.id = d.user_id ORDER BY 1
                """
            try await pool.withConnection { connection in
                try connection.simpleQuery(
                    """
                    INSERT INTO laurel.users (name) VALUES ('Ana'), ('Bo'), ('Cy');
                    INSERT INTO laurel.progress (user_id) SELECT id FROM laurel.users;
                    INSERT INTO laurel.day_scores (user_id, day, board, score, reached_at)
                    SELECT u.id, d.day::date, d.board, d.score, d.reached::timestamptz
                      FROM laurel.users u
                      JOIN (VALUES ('Ana', '2026-11-20', 'xp', 30, '2026-11-20 08:00:00.123456Z'),
                                   ('Ana', '2026-11-20', 'logs', 2, '2026-11-20 08:00:00Z'),
                                   ('Ana', '2026-11-22', 'xp', 15, '2026-11-22 09:30:00.5Z'),
                                   ('Ana', '2026-11-22', 'logs', 1, '2026-11-22 09:30:00Z'),
                                   ('Ana', '2026-11-22', 'activity:squats', 5, '2026-11-22 09:30:00Z'),
                                   ('Bo', '2026-11-21', 'xp', 50, '2026-11-21 23:59:59Z')) AS d(name, day, board, score, reached)
                        ON d.name = u.name;
                    """)
            }
            let shown = try await DistributionKeysMigrationTests.texts(rows, on: pool)
            try await SchemaMigrator(pool: pool, logger: LaurelTestDatabase.logger).migrate(SchemaFiles.shipped())

            #expect(try await DistributionKeysMigrationTests.texts(rows, on: pool) == shown)
            #expect(try await DistributionKeysMigrationTests.texts(
                "SELECT u.name || ' ' || e.day || ' ' || e.board FROM laurel.earlier_day_scores e JOIN laurel.users u ON u.id = e.user_id ORDER BY 1",
                on: pool) == ["Ana 2026-11-20 logs", "Ana 2026-11-20 xp"])
            #expect(try await DistributionKeysMigrationTests.texts(
                "SELECT u.name || ' ' || coalesce(g.latest_score_day::text, '-') FROM laurel.progress g JOIN laurel.users u ON u.id = g.user_id ORDER BY 1",
                on: pool) == ["Ana 2026-11-22", "Bo 2026-11-21", "Cy -"])
        }
    }
}
