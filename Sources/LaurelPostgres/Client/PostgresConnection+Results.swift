import CLibPQ

extension PostgresConnection {
    /// Takes ownership of what a `PQexec*`/`PQprepare` call returned and turns errors into
    /// `PostgresError`; the result is cleared on every path.
    func checkedResult(_ result: OpaquePointer?) throws(PostgresError) -> LibPQResult {
        guard let result else {
            // libpq returns no result only when it is out of memory or cannot send the command.
            throw .connection(lastErrorMessage ?? "libpq returned no result")
        }
        let owned = LibPQResult(result)
        switch owned.status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return owned
        default:
            throw failure(from: owned)
        }
    }

    /// The error a failed result stands for. Whatever the server said, a connection libpq has
    /// given up on is reported as a connection error: the caller cannot know what took effect.
    func failure(from result: borrowing LibPQResult) -> PostgresError {
        let fullMessage = libpqMessage(PQresultErrorMessage(result.raw))
        if isBroken {
            let message = fullMessage.isEmpty ? (lastErrorMessage ?? "connection lost") : fullMessage
            return .connection(message)
        }
        let message = result.errorField("M") ?? fullMessage
        guard let sqlState = result.errorField("C") else {
            // An error libpq raised itself, with no server SQLSTATE: report it as internal_error.
            return .server(sqlState: "XX000", message: "libpq: \(message)", detail: nil, constraint: nil)
        }
        return .server(
            sqlState: sqlState,
            message: message,
            detail: result.errorField("D"),
            constraint: result.errorField("n")
        )
    }

    var lastErrorMessage: String? {
        let message = libpqMessage(PQerrorMessage(raw))
        return message.isEmpty ? nil : message
    }
}

/// A `PGresult` owned by Swift: whichever way the value goes out of scope, `PQclear` runs once.
/// Values are copied out into Swift strings before that, since libpq's pointers die with it.
struct LibPQResult: ~Copyable {
    let raw: OpaquePointer

    init(_ raw: OpaquePointer) {
        self.raw = raw
    }

    deinit {
        PQclear(raw)
    }

    var status: ExecStatusType {
        PQresultStatus(raw)
    }

    /// A diagnostic field; `code` is one of libpq's `PG_DIAG_*` letters, which Swift does not import.
    func errorField(_ code: Unicode.Scalar) -> String? {
        guard let field = PQresultErrorField(raw, Int32(UInt8(ascii: code))) else { return nil }
        return String(cString: field)
    }

    /// The command tag, such as `INSERT 0 1` or `COMMIT`.
    var commandTag: String {
        String(cString: PQcmdStatus(raw))
    }

    var affectedRows: Int {
        Int(String(cString: PQcmdTuples(raw))) ?? 0
    }

    func rows() -> PostgresRows {
        let columnCount = PQnfields(raw)
        let rowCount = PQntuples(raw)
        let names = (0..<columnCount).map { column in String(cString: PQfname(raw, column)) }
        let values = (0..<rowCount).map { row in
            (0..<columnCount).map { column -> String? in
                PQgetisnull(raw, row, column) == 1 ? nil : String(cString: PQgetvalue(raw, row, column))
            }
        }
        return PostgresRows(layout: PostgresColumnLayout(names: names), values: values, affectedRows: affectedRows)
    }
}

/// libpq's messages end in a newline and sometimes carry indented continuation lines.
func libpqMessage(_ message: UnsafePointer<CChar>?) -> String {
    guard let message else { return "" }
    var text = Substring(String(cString: message))
    while let last = text.last, last.isWhitespace {
        text.removeLast()
    }
    return String(text)
}
