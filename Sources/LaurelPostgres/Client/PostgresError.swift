/// Why a PostgreSQL operation failed: the database is unreachable, the server rejected a
/// statement, a value could not be read as the type asked for, or the pool is closed.
public enum PostgresError: Error, Sendable, Hashable {
    /// Cannot connect, or the connection was lost; the outcome of an unfinished statement is unknown.
    case connection(String)
    /// The server reported an error; `sqlState` is the five-character SQLSTATE code.
    case server(sqlState: String, message: String, detail: String?, constraint: String?)
    /// A result value is missing, NULL, or not of the requested type.
    case decoding(String)
    /// The pool was closed before the work could run.
    case poolClosed

    /// The SQLSTATE code of a server error.
    public var sqlState: String? {
        if case .server(let sqlState, _, _, _) = self { return sqlState }
        return nil
    }

    /// `unique_violation` (23505): the row exists already.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// The database could not be reached or went away: connection failures, class 08 (connection
    /// exception) and the 57P0x codes a server sends when it shuts down or terminates a backend.
    public var isConnectionError: Bool {
        switch self {
        case .connection:
            return true
        case .server(let sqlState, _, _, _):
            return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
        case .decoding, .poolClosed:
            return false
        }
    }
}

extension PostgresError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .connection(let message):
            return "PostgreSQL connection error: \(message)"
        case .server(let sqlState, let message, let detail, let constraint):
            var text = "PostgreSQL error \(sqlState): \(message)"
            if let detail { text += " (\(detail))" }
            if let constraint { text += " [constraint \(constraint)]" }
            return text
        case .decoding(let message):
            return "PostgreSQL decoding error: \(message)"
        case .poolClosed:
            return "PostgreSQL pool is closed"
        }
    }
}

extension PostgresError {
    /// The bare message of a connection error, for logs and the backoff's "after: …" text.
    var connectionMessage: String {
        if case .connection(let message) = self { return message }
        return description
    }

    /// Errors after which a cached prepared statement cannot be used again: `0A000` "cached plan
    /// must not change result type" (its table changed) and `26000` "prepared statement does not
    /// exist" (`DEALLOCATE ALL` or `DISCARD ALL` ran). The code alone decides, as the message may
    /// be translated; preparing again costs little if the cause was something else.
    var invalidatesPreparedStatements: Bool {
        sqlState == "26000" || sqlState == "0A000"
    }
}
