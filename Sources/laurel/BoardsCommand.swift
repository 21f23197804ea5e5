import ArgumentParser
import Foundation
import LaurelCore
import LaurelPostgres
import LaurelServer

/// `laurel boards refill`: rewrites every user's day scores from what is stored (see docs/leaderboards.md).
struct BoardsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "boards", abstract: "Work with leaderboards.", subcommands: [Refill.self])

    struct Refill: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refill",
            abstract: "Recompute every user's board scores from the stored facts, unlocks and challenges (after an upgrade or a catalog change).")

        @Option(help: "The running catalog: a name or a file (env LAUREL_CATALOG; default standfit).") var catalog: String?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let logger = try LoggingSetup.bootstrap(level: "warning")
            let rules: Rulebook
            do {
                rules = Rulebook(catalog: try ShippedCatalogs.load(Setting.value(catalog, env: "LAUREL_CATALOG") ?? "standfit"))
            } catch {
                throw SettingError("\(error)")
            }
            try await database.withDatabase(logger: logger) { connectionString, _ in
                let pool = PostgresPool(
                    configuration: PostgresConfiguration(connectionString: connectionString, applicationName: "laurel-boards-refill", connectTimeoutSeconds: 5),
                    size: 2, logger: logger)
                do {
                    let done = try await BoardRefill(store: PostgresStore(pool: pool), rules: rules).refillEveryUser(now: Date.nowInWholeMilliseconds)
                    print("refilled \(done.users) users, \(done.rows) day scores")
                } catch {
                    await pool.close()
                    throw error
                }
                await pool.close()
            }
        }
    }
}
