import ArgumentParser
import LaurelPostgres

/// `laurel migrate`: applies pending migrations from `sql/` and exits.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Apply pending schema migrations and exit.")

    @OptionGroup var database: DatabaseOptions
    @Option(help: "Log level (env LAUREL_LOG_LEVEL; default info).") var logLevel: String?

    func run() async throws {
        let logger = try LoggingSetup.bootstrap(level: logLevel)
        try await database.withDatabase(logger: logger) { connectionString, embedded in
            let pool = PostgresPool(
                configuration: PostgresConfiguration(connectionString: connectionString, applicationName: "laurel-migrate", connectTimeoutSeconds: 5),
                size: 1, logger: logger)
            do {
                let applied = try await SchemaMigrator(pool: pool, logger: logger).migrate(SchemaFiles.shipped())
                print(applied.isEmpty ? "up to date" : "applied \(applied.map(String.init).joined(separator: ", "))")
            } catch {
                await pool.close()
                throw error
            }
            await pool.close()
        }
    }
}
