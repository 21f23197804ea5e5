import ArgumentParser
import Foundation
import LaurelPostgres
import Logging

/// Where the database is: `--database-url`, else `LAUREL_DATABASE_URL`, else libpq's own `PG*` variables, else the
/// embedded cluster under `./.laurel/`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "PostgreSQL URL or conninfo (env LAUREL_DATABASE_URL; default: libpq's PG* variables, else an embedded cluster under ./.laurel/).")
    var databaseURL: String?

    enum Location {
        case configured(String)
        case embedded
    }

    func location() -> Location {
        if let url = Setting.value(databaseURL, env: "LAUREL_DATABASE_URL") { return .configured(url) }
        let environment = ProcessInfo.processInfo.environment
        if ["PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGSERVICE"].contains(where: { environment[$0] != nil }) {
            return .configured("")
        }
        return .embedded
    }

    /// Runs `body` with the database to use (its connection string, and the embedded cluster if one was started
    /// because none is configured); the embedded cluster is stopped again when `body` ends, however it ends.
    func withDatabase<T>(logger: Logger, _ body: (_ connectionString: String, _ embedded: EmbeddedPostgres?) async throws -> T) async throws -> T {
        switch location() {
        case .configured(let url):
            return try await body(url, nil)
        case .embedded:
            let cluster = EmbeddedPostgres(directory: URL(fileURLWithPath: ".laurel", isDirectory: true).standardizedFileURL, logger: logger)
            let url = try await cluster.start()
            do {
                let value = try await body(url, cluster)
                await cluster.stop()
                return value
            } catch {
                await cluster.stop()
                throw error
            }
        }
    }
}
