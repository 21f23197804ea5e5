import ArgumentParser
import LaurelCore
import LaurelPostgres

/// `laurel user add NAME`: creates a user through the admin SQL API and prints its token.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "user", abstract: "Manage users.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Create a user and print its token (shown once).")

        @Argument(help: "The user's name.") var name: String
        @Option(help: "IANA time zone (default UTC).") var timeZone = "UTC"
        @Option(help: "Grant premium for this long, e.g. 30d.") var premium: String?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let logger = try LoggingSetup.bootstrap(level: "warning")
            var premiumSeconds: Double?
            if let premium {
                guard let duration = DurationText.parse(premium) else { throw SettingError("--premium must be a duration such as 30d") }
                premiumSeconds = duration.inSeconds
            }
            try await database.withDatabase(logger: logger) { connectionString, embedded in
                let pool = PostgresPool(
                    configuration: PostgresConfiguration(connectionString: connectionString, applicationName: "laurel-user", connectTimeoutSeconds: 5),
                    size: 1, logger: logger)
                let (name, timeZone, grantSeconds) = (name, timeZone, premiumSeconds)
                do {
                    let token = try await pool.transaction { connection -> String in
                        let token = try connection.query("SELECT token FROM laurel.create_user($1::text, $2::text)", [.text(name), .text(timeZone)])
                            .first.flatMap { $0["token"] } ?? ""
                        if let grantSeconds {
                            try connection.execute("SELECT laurel.grant_premium($1::text, make_interval(secs => $2::float8))",
                                                   [.text(name), .double(grantSeconds)])
                        }
                        return token
                    }
                    print(token)
                } catch {
                    await pool.close()
                    throw error
                }
                await pool.close()
            }
        }
    }
}
