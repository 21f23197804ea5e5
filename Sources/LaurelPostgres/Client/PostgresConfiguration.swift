/// Where and how to reach PostgreSQL: a libpq connection string or URL plus the settings
/// every Laurel connection sets for itself.
public struct PostgresConfiguration: Sendable {
    /// A libpq conninfo string (`host=… dbname=…`) or URL (`postgresql://user@127.0.0.1:5432/db`).
    /// An empty string leaves everything to libpq's `PG*` environment variables.
    public var connectionString: String
    /// Shown in `pg_stat_activity.application_name`.
    public var applicationName: String
    /// How long libpq may spend opening one connection (libpq treats 1 as 2).
    public var connectTimeoutSeconds: Int
    /// Settings each connection makes for its session once connected (`set_config(name, value, false)`), such as
    /// `laurel.template_limit`, which the SQL functions read; `jit` is always `off`.
    public var sessionSettings: [String: String] = [:]

    /// - Parameters:
    ///   - connectionString: a libpq conninfo string or `postgresql://` URL.
    ///   - applicationName: the name the server shows for these connections.
    ///   - connectTimeoutSeconds: the limit for opening one connection.
    public init(connectionString: String, applicationName: String = "laurel", connectTimeoutSeconds: Int = 5) {
        self.connectionString = connectionString
        self.applicationName = applicationName
        self.connectTimeoutSeconds = connectTimeoutSeconds
    }

    /// Keyword/value pairs for `PQconnectdbParams` with `expand_dbname = 1`. `dbname` comes first, so the
    /// settings after it win over the same keys inside the connection string; UTF-8 is fixed because
    /// every value is decoded as UTF-8.
    var libpqParameters: [(keyword: String, value: String)] {
        [
            ("dbname", connectionString),
            ("application_name", applicationName),
            ("connect_timeout", String(max(connectTimeoutSeconds, 1))),
            ("client_encoding", "UTF8"),
        ]
    }
}
