import ArgumentParser
import Foundation
import LaurelCore
import LaurelPostgres
import LaurelServer
import Synchronization

/// `laurel catalog preview`: what a catalog change would do to the users in the database, read-only.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "catalog", abstract: "Work with catalogs.", subcommands: [Preview.self])

    struct Preview: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "preview",
            abstract: "Show what a catalog would change for the users in the database (nothing is written).")

        @Option(help: "The catalog file to preview.") var catalog: String
        @Option(help: "The catalog it would replace: a name or a file (env LAUREL_CATALOG; default standfit).") var from: String?
        @Flag(help: "Print one JSON object instead of a table.") var json = false
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let logger = try LoggingSetup.bootstrap(level: "warning")
            let replaced = Setting.value(from, env: "LAUREL_CATALOG") ?? "standfit"
            let preview: CatalogPreview
            do {
                preview = CatalogPreview(from: Rulebook(catalog: try ShippedCatalogs.load(replaced)), to: Rulebook(catalog: try ShippedCatalogs.load(catalog)))
            } catch {
                throw SettingError("\(error)")
            }
            let result = Mutex(preview)
            try await database.withDatabase(logger: logger) { connectionString, _ in
                let pool = PostgresPool(
                    configuration: PostgresConfiguration(connectionString: connectionString, applicationName: "laurel-catalog-preview", connectTimeoutSeconds: 5),
                    size: 1, logger: logger)
                let store = PostgresStore(pool: pool)
                let now = Date.nowInWholeMilliseconds
                do {
                    try await store.readEveryUser { user, reader in
                        try result.withLock { try $0.add(user, reading: reader, now: now) }
                    }
                } catch {
                    await pool.close()
                    throw error
                }
                await pool.close()
            }
            let done = result.withLock { $0 }
            print(json ? done.jsonText : done.table)
        }
    }
}
