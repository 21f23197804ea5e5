import Foundation
import LaurelCore
import LaurelPostgres
import Testing

/// Migration 0012 on a database that lived before it, in a database of its own: template achievement ids lose the
/// tier's name (two old unlocks of one new id keep the earliest), and the day through which each stored streak holds
/// is filled in from what the last evaluation showed, so the admin overview is right before anyone logs in again.
@Suite struct XPFixesMigrationTests {
    /// A fresh database migrated up to `version`, handed to `body` with its pool, dropped afterwards.
    static func withDatabase(
        migratedThrough version: Int, _ body: (PostgresPool, _ migrations: [Migration]) async throws -> Void
    ) async throws {
        let name = "laurel_migration_\(UUID().uuidString.prefix(8).lowercased())"
        let base = try LaurelTestDatabase.url()
        let admin = try await LaurelTestDatabase.admin()
        try await admin.withConnection { connection in _ = try connection.execute("CREATE DATABASE \(name)") }
        let url = try #require(base.lastIndex(of: "/").map { String(base[...$0]) + name }, "a database URL ends with its name")
        let pool = PostgresPool(
            configuration: PostgresConfiguration(connectionString: url, applicationName: "laurel-migration-tests", connectTimeoutSeconds: 5),
            size: 1, logger: LaurelTestDatabase.logger)
        let result: Result<Void, any Error>
        do {
            let migrations = try Migration.shipped()
            try await SchemaMigrator(pool: pool, logger: LaurelTestDatabase.logger).migrate(migrations.filter { $0.version <= version })
            try await body(pool, migrations)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await pool.close()
        try await admin.withConnection { connection in _ = try connection.execute("DROP DATABASE \(name) WITH (FORCE)") }
        try result.get()
    }

    @Test func templateUnlocksLoseTheTierNameAndKeepTheEarliestDate() async throws {
        try await Self.withDatabase(migratedThrough: 11) { pool, migrations in
            let (template, speed) = ("0b3e2f1c-0000-4000-8000-000000000001", "0b3e2f1c-0000-4000-8000-000000000002")
            let user = try await pool.transaction { connection -> Int in
                let user = try connection.query("SELECT user_id FROM laurel.create_user('before-0012')").first!.int("user_id")
                try connection.execute(
                    "INSERT INTO laurel.activities (id, user_id, name, unit) VALUES ('act-0012', $1::bigint, 'Rowing', 'reps')", [.int(user)])
                try connection.execute(
                    """
                    INSERT INTO laurel.templates (id, user_id, activity_id, name, type, tiers) VALUES
                        ($2::uuid, $1::bigint, 'act-0012', 'Rowing Volume', 'volume',
                         '[{"tier":"first","target":10},{"tier":"Silver","target":20},{"tier":"gold.x","target":30}]'),
                        ($3::uuid, $1::bigint, 'act-0012', 'Rowing Speed', 'speed', '[{"tier":"bronze","target":50,"window_minutes":10}]')
                    """, [.int(user), .text(template), .text(speed)])
                // The bronze tier was renamed "first": under the old ids that unlocked it once more, later.
                try connection.execute(
                    """
                    INSERT INTO laurel.unlocks (user_id, achievement_id, unlocked_at) VALUES
                        ($1::bigint, 'first_exercise', '2026-01-01T08:00:00Z'),
                        ($1::bigint, 'tpl.' || $2::text || '.bronze.10', '2026-01-02T08:00:00Z'),
                        ($1::bigint, 'tpl.' || $2::text || '.first.10', '2026-01-05T08:00:00Z'),
                        ($1::bigint, 'tpl.' || $2::text || '.silver.20', '2026-01-03T08:00:00Z'),
                        ($1::bigint, 'tpl.' || $2::text || '.silver.25', '2026-01-04T08:00:00Z'),
                        ($1::bigint, 'tpl.' || $2::text || '.gold.x.30', '2026-01-06T08:00:00Z'),
                        ($1::bigint, 'tpl.' || $3::text || '.bronze.50.w10', '2026-01-07T08:00:00Z')
                    """, [.int(user), .text(template), .text(speed)])
                return user
            }

            try await SchemaMigrator(pool: pool, logger: LaurelTestDatabase.logger).migrate(migrations)

            let unlocks = try await pool.withConnection { connection in
                try connection.query(
                    "SELECT achievement_id, to_char(unlocked_at AT TIME ZONE 'UTC', 'MM-DD') AS day FROM laurel.unlocks WHERE user_id = $1::bigint",
                    [.int(user)]
                ).map { (try $0.string("achievement_id"), try $0.string("day")) }
            }
            #expect(Dictionary(unlocks, uniquingKeysWith: { first, _ in first }) == [
                "first_exercise": "01-01",
                "tpl.\(template).10": "01-02",
                "tpl.\(template).20": "01-03",
                "tpl.\(template).25": "01-04",
                "tpl.\(template).30": "01-06",
                "tpl.\(speed).50.w10": "01-07",
            ])
            #expect(unlocks.count == 6)
            // The ids the server makes now are the migrated ones.
            let tiers = [TemplateTier(tier: "first", target: 10), TemplateTier(tier: "bronze", target: 50, windowMinutes: 10)]
            #expect(AchievementTemplate.achievementID(template: template, tier: tiers[0]) == "tpl.\(template).10")
            #expect(AchievementTemplate.achievementID(template: speed, tier: tiers[1]) == "tpl.\(speed).50.w10")
        }
    }

    @Test func storedStreaksGetTheDayThroughWhichTheyHold() async throws {
        try await Self.withDatabase(migratedThrough: 11) { pool, migrations in
            let today = TestClock.today()
            let sinceMonday = today.weekday.rawValue - 1
            let monday = today.adding(days: -sinceMonday)
            func streak(current: Int, freezes: Int, lastActive: LocalDay) -> String {
                #"{"current":\#(current),"longest":\#(current),"freezes":\#(freezes),"at_risk":false,"last_active_day":"\#(lastActive)"}"#
            }
            // (name, shown streak, evaluated days ago, rest day, vacation) and the day through which the streak holds.
            let users: [(String, String?, Int, Int?, Bool, LocalDay?)] = [
                ("held", streak(current: 3, freezes: 0, lastActive: today.adding(days: -1)), 0, nil, false, today),
                ("stale", streak(current: 3, freezes: 0, lastActive: today.adding(days: -4)), 3, nil, false, today.adding(days: -3)),
                ("frozen", streak(current: 9, freezes: 1, lastActive: today.adding(days: -1)), 0, nil, false, today.adding(days: 1)),
                // Evaluated on a Saturday, the Sunday after it its rest day: it holds through the Monday.
                ("resting", streak(current: 2, freezes: 0, lastActive: monday.adding(days: -9)), sinceMonday + 9, 7, false, monday.adding(days: -7)),
                ("away", streak(current: 2, freezes: 0, lastActive: today.adding(days: -1)), 0, nil, true, nil),
                ("none", streak(current: 0, freezes: 0, lastActive: today.adding(days: -9)), 5, nil, false, nil),
                ("never", nil, 0, nil, false, nil),
            ]
            try await pool.transaction { connection in
                for (name, shown, evaluatedDaysAgo, restDay, vacation, _) in users {
                    let user = try connection.query("SELECT user_id FROM laurel.create_user($1::text)", [.text(name)]).first!.int("user_id")
                    try connection.execute(
                        "UPDATE laurel.settings SET rest_day = $2::smallint, vacation = $3::boolean WHERE user_id = $1::bigint",
                        [.int(user), restDay.map { .int($0) } ?? .null, .bool(vacation)])
                    try connection.execute(
                        """
                        UPDATE laurel.progress SET shown_streak = $2::json, current_streak = coalesce(($2::json->>'current')::int, 0),
                               updated_at = now() - $3::integer * interval '1 day'
                         WHERE user_id = $1::bigint
                        """, [.int(user), shown.map { .text($0) } ?? .null, .int(evaluatedDaysAgo)])
                }
            }

            try await SchemaMigrator(pool: pool, logger: LaurelTestDatabase.logger).migrate(migrations)

            let held = try await pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT u.name, to_char(p.streak_holds_through, 'YYYY-MM-DD') AS day
                      FROM laurel.users u JOIN laurel.progress p ON p.user_id = u.id
                    """
                ).map { (try $0.string("name"), try $0.optionalString("day")) }
            }
            let found = Dictionary(held, uniquingKeysWith: { first, _ in first })
            for (name, _, _, _, _, expected) in users {
                #expect(found[name] == .some(expected?.description), "\(name)")
            }
        }
    }
}
