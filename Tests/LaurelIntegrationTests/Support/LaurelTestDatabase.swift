import Foundation
import LaurelCore
import LaurelPostgres
import Logging
import Testing

/// The migrated Laurel database the server tests share (from `scripts/with-test-postgres`), and the admin SQL API
/// on it. Tests run in parallel, so each makes users of its own with unique names.
enum LaurelTestDatabase {
    static let logger = Logger(label: "laurel.tests")

    static func url() throws -> String {
        try #require(
            ProcessInfo.processInfo.environment["LAUREL_TEST_DATABASE_URL"],
            "LAUREL_TEST_DATABASE_URL is not set: run the tests with scripts/test (or scripts/with-test-postgres swift test)")
    }

    static func configuration(_ applicationName: String = "laurel-tests") throws -> PostgresConfiguration {
        PostgresConfiguration(connectionString: try url(), applicationName: applicationName, connectTimeoutSeconds: 5)
    }

    /// One pool for admin work, migrated once per test process.
    static func admin() async throws -> PostgresPool {
        try await shared.value.get()
    }

    private static let shared = Task<Result<PostgresPool, any Error>, Never> {
        do {
            let pool = PostgresPool(configuration: try configuration("laurel-tests-admin"), size: 4, logger: logger)
            try await SchemaMigrator(pool: pool, logger: logger).migrate(SchemaFiles.shipped())
            return .success(pool)
        } catch {
            return .failure(error)
        }
    }

    /// Runs `body` with a one-connection pool on a database of its own, migrated now to `schema` (the shipped one when
    /// nil) and dropped afterwards. The pool's connection logs to `logger` (its notices among it).
    static func withFreshDatabase(
        migratedTo schema: SchemaFiles? = nil, logger: Logger = logger, _ body: (PostgresPool) async throws -> Void
    ) async throws {
        try await withFreshDatabaseReachedBy(migratedTo: schema, logger: logger) { pool, _ in try await body(pool) }
    }

    /// ``withFreshDatabase(migratedTo:logger:_:)`` that also gives `body` the database's address, for connections of
    /// its own.
    static func withFreshDatabaseReachedBy(
        migratedTo schema: SchemaFiles? = nil, logger: Logger = logger, _ body: (PostgresPool, PostgresConfiguration) async throws -> Void
    ) async throws {
        let name = "laurel_fresh_\(UInt32.random(in: 0...UInt32.max))"
        try await scalar("CREATE DATABASE \(name)")
        var address = try #require(URLComponents(string: try url()))
        address.path = "/\(name)"
        let configuration = PostgresConfiguration(
            connectionString: try #require(address.string), applicationName: "laurel-tests-fresh", connectTimeoutSeconds: 5)
        let pool = PostgresPool(configuration: configuration, size: 1, logger: logger)
        do {
            try await SchemaMigrator(pool: pool, logger: logger).migrate(try schema ?? SchemaFiles.shipped())
            try await body(pool, configuration)
        } catch {
            await pool.close()
            _ = try? await scalar("DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
        await pool.close()
        try await scalar("DROP DATABASE \(name) WITH (FORCE)")
    }

    /// A new user through `laurel.create_user`, with a name no other test uses, in the shared database or on `pool`'s.
    static func createUser(_ prefix: String = "user", timeZone: String = "UTC", on pool: PostgresPool? = nil) async throws -> TestUser {
        let name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        let pool = if let pool { pool } else { try await admin() }
        let row = try await pool.withConnection { connection in
            try connection.query("SELECT user_id, token FROM laurel.create_user($1::text, $2::text)", [.text(name), .text(timeZone)]).first
        }
        let created = try #require(row)
        return TestUser(id: UserID(Int64(try created.int("user_id"))), name: name, token: try created.string("token"))
    }

    /// Runs admin SQL and returns the first column of the first row.
    @discardableResult
    static func scalar(_ sql: String, _ parameters: [PostgresValue] = []) async throws -> String? {
        try await admin().withConnection { connection in try connection.query(sql, parameters).first?[0] }
    }

    /// Runs admin SQL whose first column of the first row is a number (a `count(*)`, say) and returns it.
    static func count(_ sql: String, _ parameters: [PostgresValue] = []) async throws -> Int {
        let text = try #require(try await scalar(sql, parameters), "no row from \(sql)")
        return try #require(Int(text), "not a number from \(sql): \(text)")
    }

    /// The user's log rows, deleted ones included.
    static func logCount(of user: TestUser) async throws -> Int {
        try await count("SELECT count(*) FROM laurel.logs WHERE user_id = $1::bigint", [.text(user.id.description)])
    }

    /// The user's custom activities, deleted ones included.
    static func activityCount(of user: TestUser) async throws -> Int {
        try await count("SELECT count(*) FROM laurel.custom_activities WHERE user_id = $1::bigint", [.text(user.id.description)])
    }
}

/// A user made for one test.
struct TestUser: Sendable {
    let id: UserID
    let name: String
    let token: String
}
