import Foundation
import LaurelPostgres
import Testing

/// The schema rules the plan for more than one PostgreSQL depends on (docs/scaling.md, ``DistributionRules``): every
/// user's table has the user's id in each of its keys and references other users' tables only through it, and shared
/// tables reference no user's rows. Checked against the migrated database, so a later migration that breaks them fails
/// here; and against tables made to break them, so the check is seen to fail.
@Suite struct DistributionRulesTests {
    @Test func theMigratedSchemaKeepsTheDistributionRules() async throws {
        let tables = try await LaurelTestDatabase.admin().withConnection { connection in
            try SchemaTables.read(schema: "laurel", on: connection)
        }
        let violations = DistributionRules.violations(in: tables)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")

        // The checker looks where the plan does: the users' tables are distributed, the catalogs and listings shared.
        let userTables = Set(DistributionRules.userTables(in: tables))
        let sharedTables = Set(DistributionRules.sharedTables(in: tables))
        for table in ["users", "tokens", "progress", "settings", "subscriptions", "custom_activities", "logs", "templates", "unlocks",
                      "pushes", "challenges", "listing_installs"] {
            #expect(userTables.contains("laurel.\(table)"), "laurel.\(table) is not a user's table")
        }
        for table in ["activities", "achievements", "listings", "user_names", "server_limits"] {
            #expect(sharedTables.contains("laurel.\(table)"), "laurel.\(table) is not a shared table")
        }
    }

    @Test func theSchemaBeforeTheDistributionKeysBrokeTheRules() async throws {
        let before = try SchemaFiles.shipped().migrations.filter { $0.version <= 6 }
        try await LaurelTestDatabase.withFreshDatabase(migratedTo: SchemaFiles(migrations: before)) { pool in
            let tables = try await pool.withConnection { connection in try SchemaTables.read(schema: "laurel", on: connection) }
            let broken = Set(DistributionRules.violations(in: tables).map { Broken($0.table, $0.rule) })
            #expect(broken == [
                Broken("laurel.users", .keyWithoutUserID),  // the unique name index
                Broken("laurel.tokens", .keyWithoutUserID),
                Broken("laurel.settings", .keyWithoutUserID),
                Broken("laurel.subscriptions", .keyWithoutUserID),
                Broken("laurel.templates", .keyWithoutUserID),
                Broken("laurel.templates", .foreignKeyAcrossUsers),  // its activity, maybe another user's
                Broken("laurel.activities", .userIDMayBeNull),  // built-ins and users' custom ones in one table
                Broken("laurel.activities", .keyWithoutUserID),
                Broken("laurel.logs", .foreignKeyAcrossUsers),
                Broken("laurel.listings", .sharedTableReferencesUserRows),
            ])
        }
    }

    @Test func tablesThatBreakTheRulesAreReported() async throws {
        let schema = "distribution_probe_\(UInt32.random(in: 0...UInt32.max))"
        let tables = try await LaurelTestDatabase.admin().withConnection { connection in
            // Made and read in a transaction that is rolled back: nothing stays behind.
            try connection.simpleQuery("BEGIN")
            defer { try? connection.simpleQuery("ROLLBACK") }
            try connection.simpleQuery(Self.probeTables(in: schema))
            return try SchemaTables.read(schema: schema, on: connection)
        }
        let violations = DistributionRules.violations(in: tables)
        let broken = Set(violations.map { Broken(String($0.table.dropFirst(schema.count + 1)), $0.rule) })
        #expect(broken == [
            Broken("settings_by_id", .keyWithoutUserID),
            Broken("tokens_by_digest", .keyWithoutUserID),
            Broken("named_things", .keyWithoutUserID),
            Broken("mixed_activities", .userIDMayBeNull),
            Broken("mixed_activities", .keyWithoutUserID),
            Broken("shares", .foreignKeyAcrossUsers),
            Broken("events_without_key", .noPrimaryKey),
            Broken("small_ids", .userIDOfAnotherType),
            Broken("showcase", .sharedTableReferencesUserRows),
        ], "\(violations.map(\.description).joined(separator: "\n"))")
        #expect(Set(violations.map(\.rule)) == Set(DistributionRules.Rule.allCases))
        #expect(DistributionRules.sharedTables(in: tables) == ["catalog_items", "guesses", "showcase"].map { "\(schema).\($0)" })
    }

    /// One table a rule broken, and tables that keep every rule: a user's table keyed by the user with a foreign key
    /// through the user's id and one to a shared table, a catalog, and a table of no user keyed by a source address.
    static func probeTables(in schema: String) -> String {
        """
        CREATE SCHEMA \(schema);
        CREATE TABLE \(schema).users (id bigint PRIMARY KEY, name text NOT NULL);
        CREATE TABLE \(schema).catalog_items (id text PRIMARY KEY, name text NOT NULL UNIQUE);
        CREATE TABLE \(schema).guesses (source inet PRIMARY KEY, attempts integer NOT NULL);
        CREATE TABLE \(schema).entries (
            user_id bigint NOT NULL REFERENCES \(schema).users ON DELETE CASCADE, id text NOT NULL, PRIMARY KEY (user_id, id));
        CREATE TABLE \(schema).entry_marks (
            user_id bigint NOT NULL, entry_id text NOT NULL, item_id text NOT NULL REFERENCES \(schema).catalog_items,
            PRIMARY KEY (user_id, entry_id, item_id),
            FOREIGN KEY (user_id, entry_id) REFERENCES \(schema).entries (user_id, id));

        CREATE TABLE \(schema).settings_by_id (id bigint PRIMARY KEY, user_id bigint NOT NULL REFERENCES \(schema).users);
        CREATE TABLE \(schema).tokens_by_digest (
            user_id bigint NOT NULL, digest bytea NOT NULL, PRIMARY KEY (user_id, digest), UNIQUE (digest));
        CREATE TABLE \(schema).named_things (user_id bigint NOT NULL, id text NOT NULL, name text NOT NULL, PRIMARY KEY (user_id, id));
        CREATE UNIQUE INDEX named_things_name ON \(schema).named_things (lower(name)) INCLUDE (user_id);
        CREATE TABLE \(schema).mixed_activities (id text PRIMARY KEY, user_id bigint REFERENCES \(schema).users);
        CREATE TABLE \(schema).shares (
            user_id bigint NOT NULL REFERENCES \(schema).users, friend_id bigint NOT NULL REFERENCES \(schema).users,
            PRIMARY KEY (user_id, friend_id));
        CREATE TABLE \(schema).events_without_key (user_id bigint NOT NULL, at timestamptz NOT NULL);
        CREATE TABLE \(schema).small_ids (user_id integer NOT NULL, id text NOT NULL, PRIMARY KEY (user_id, id));
        CREATE TABLE \(schema).showcase (id bigint PRIMARY KEY, author_id bigint NOT NULL REFERENCES \(schema).users);
        """
    }

    /// A table and a rule it breaks.
    struct Broken: Hashable, CustomStringConvertible {
        var table: String
        var rule: DistributionRules.Rule

        init(_ table: String, _ rule: DistributionRules.Rule) {
            self.table = table
            self.rule = rule
        }

        var description: String { "\(table): \(rule.rawValue)" }
    }
}
