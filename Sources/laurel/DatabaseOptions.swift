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

    /// The database to use, starting the embedded cluster when none is configured. The caller stops the
    /// returned cluster (if any) on exit.
    func open(logger: Logger) throws -> (connectionString: String, embedded: EmbeddedPostgres?) {
        switch location() {
        case .configured(let url):
            return (url, nil)
        case .embedded:
            let cluster = EmbeddedPostgres(directory: URL(fileURLWithPath: ".laurel", isDirectory: true).standardizedFileURL, logger: logger)
            let url = try cluster.start()
            return (url, cluster)
        }
    }
}
