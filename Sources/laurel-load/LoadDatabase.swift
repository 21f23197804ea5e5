import Foundation

/// Where the load users are created: `--database-url`, else `LAUREL_DATABASE_URL`, else libpq's own `PG*`
/// variables, as for `laurel serve`. Unlike the server there is no embedded fallback: a load run against an
/// embedded cluster of its own would create users the server never sees.
enum LoadDatabase {
    static let libpqVariables = ["PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGSERVICE"]

    /// The libpq connection string to use; empty means libpq reads its `PG*` variables itself.
    static func connectionString(flag: String?) throws -> String {
        if let flag, !flag.isEmpty { return flag }
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["LAUREL_DATABASE_URL"], !url.isEmpty { return url }
        if libpqVariables.contains(where: { environment[$0] != nil }) { return "" }
        throw LoadError("""
            no database to create the load users in: pass --database-url (the server's database, e.g. \
            postgresql://laurel@127.0.0.1:5432/laurel), set LAUREL_DATABASE_URL, or set libpq's PGHOST/PGDATABASE
            """)
    }
}

/// A failure that ends the run, with a message for the person who started it.
struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
