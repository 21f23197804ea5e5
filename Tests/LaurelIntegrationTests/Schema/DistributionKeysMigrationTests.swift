import Foundation
import LaurelPostgres
import Testing

/// `sql/migrations/0008_distribution_keys.sql` on a database that has users already: custom activities move to
/// `laurel.custom_activities` (the catalog's stay in `laurel.activities`), names are claimed in `laurel.user_names`,
/// and deleting a user takes the user's listings and name claim along.
@Suite struct DistributionKeysMigrationTests {
    @Test func usersCustomActivitiesAndNamesKeepTheirRowsAcrossTheMigration() async throws {
        let before = try SchemaFiles.shipped().migrations.filter { $0.version <= 6 }
        try await LaurelTestDatabase.withFreshDatabase(migratedTo: SchemaFiles(migrations: before)) { pool in
            try await pool.withConnection { connection in
                try connection.simpleQuery(
                    """
                    INSERT INTO laurel.users (name) VALUES ('Ana'), ('Bo');
                    INSERT INTO laurel.progress (user_id) SELECT id FROM laurel.users;
                    INSERT INTO laurel.activities (id, user_id, name, unit) VALUES
                        ('pushups', NULL, 'Pushups', 'reps'),
                        ('0b5e7c1a-0000-4000-8000-000000000001', (SELECT id FROM laurel.users WHERE name = 'Ana'), 'Pull-ups', 'reps');
                    INSERT INTO laurel.templates (user_id, activity_id, name, type, tiers)
                    SELECT id, '0b5e7c1a-0000-4000-8000-000000000001', 'Pulls', 'volume', '[]' FROM laurel.users WHERE name = 'Ana';
                    INSERT INTO laurel.listings (id, author_id, template_id, name, type, tiers, description, published_at, updated_at)
                    SELECT gen_random_uuid(), t.user_id, t.id, t.name, t.type, t.tiers, '', now(), now() FROM laurel.templates t;
                    """)
            }
            try await SchemaMigrator(pool: pool, logger: LaurelTestDatabase.logger).migrate(SchemaFiles.shipped())

            #expect(try await Self.texts("SELECT u.name || ' ' || a.id || ' ' || a.name FROM laurel.custom_activities a JOIN laurel.users u ON u.id = a.user_id", on: pool)
                == ["Ana 0b5e7c1a-0000-4000-8000-000000000001 Pull-ups"])
            #expect(try await Self.texts("SELECT id FROM laurel.activities", on: pool) == ["pushups"])
            #expect(try await Self.texts("SELECT name_key FROM laurel.user_names ORDER BY 1", on: pool) == ["ana", "bo"])

            let taken = await #expect(throws: PostgresError.self) {
                try await pool.withConnection { connection in _ = try connection.query("SELECT * FROM laurel.create_user('ANA')") }
            }
            #expect(taken?.isUniqueViolation == true)

            try await pool.withConnection { connection in _ = try connection.query("SELECT laurel.delete_user('ana')") }
            #expect(try await Self.texts("SELECT id::text FROM laurel.listings", on: pool) == [])
            #expect(try await Self.texts("SELECT id FROM laurel.custom_activities", on: pool) == [])
            #expect(try await Self.texts("SELECT name_key FROM laurel.user_names", on: pool) == ["bo"])
            try await pool.withConnection { connection in _ = try connection.query("SELECT * FROM laurel.create_user('ANA')") }
            #expect(try await Self.texts("SELECT name_key FROM laurel.user_names ORDER BY 1", on: pool) == ["ana", "bo"])
        }
    }

    /// The first column of every row.
    static func texts(_ sql: String, on pool: PostgresPool) async throws -> [String?] {
        try await pool.withConnection { connection in try connection.query(sql).map { $0[0] } }
    }
}
