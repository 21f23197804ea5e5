import CLibPQ
import Logging

/// One libpq connection. It is not Sendable: it lives on a database thread and is used only
/// inside the closures given to `PostgresPool`, one unit of work at a time.
///
/// Statements run as prepared statements, prepared once per SQL text on this connection, with
/// parameters and results in text format. A reconnect means a new `PostgresConnection`, so its
/// statement cache starts empty.
public final class PostgresConnection {
    let raw: OpaquePointer
    let logger: Logger
    /// Kept alive as long as `raw`, which holds an unretained pointer to it for notices.
    private let noticeLogger: PostgresNoticeLogger
    private var preparedStatements: [String: String] = [:]
    /// Numbers statement names; never reused, so a name the server may still hold is not taken again.
    private var preparedStatementSerial = 0
    private var transactionDepth = 0
    /// Types' OIDs by name, looked up once a connection (``typeOID(of:)``); a few, found by comparing names (a
    /// name passed as the same literal compares in a few instructions, and hashes in hundreds, once a batch).
    private var typeOIDs: [(name: String, oid: UInt32)] = []

    /// Distinct SQL texts prepared per connection; beyond this they run unprepared, so that
    /// generated SQL cannot grow the server's and our caches without bound.
    static let preparedStatementLimit = 512

    private init(raw: OpaquePointer, logger: Logger) {
        self.raw = raw
        self.logger = logger
        self.noticeLogger = PostgresNoticeLogger(logger: logger)
        noticeLogger.install(on: raw)
    }

    deinit {
        LibPQThreadAudit.check()
        PQfinish(raw)
    }

    /// Opens a connection; the calling thread blocks until it is ready or has failed.
    static func connect(configuration: PostgresConfiguration, logger: Logger) throws(PostgresError) -> PostgresConnection {
        LibPQThreadAudit.check()
        let parameters = configuration.libpqParameters
        let keywords = CStringArray(parameters.map(\.keyword))
        let values = CStringArray(parameters.map(\.value))
        let connection = keywords.withNullTerminatedPointers { keywordPointers in
            values.withNullTerminatedPointers { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw .connection("libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = libpqMessage(PQerrorMessage(connection))
            PQfinish(connection)
            throw .connection(message.isEmpty ? "could not connect" : message)
        }
        // No JIT compilation: Laurel's statements touch a handful of rows, yet a generic plan's estimate (a
        // hundred rows assumed for a batch, a pessimistic index cost right after a VACUUM of a table that
        // shrank) can cross jit_above_cost, and then every LOG paid about 30 ms compiling its plan.
        var settings = "SET jit = off"
        for (name, value) in configuration.sessionSettings.sorted(by: { $0.key < $1.key }) {
            settings += "; SELECT set_config(\(sqlLiteral(name)), \(sqlLiteral(value)), false)"
        }
        if let result = PQexec(connection, settings) {
            let status = PQresultStatus(result)
            PQclear(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                let message = libpqMessage(PQerrorMessage(connection))
                PQfinish(connection)
                throw .connection("could not set up the session: \(message)")
            }
        }
        var connectionLogger = logger
        connectionLogger[metadataKey: "postgres.backend.pid"] = "\(PQbackendPID(connection))"
        return PostgresConnection(raw: connection, logger: connectionLogger)
    }

    /// Runs one statement and returns its rows.
    /// - Parameters:
    ///   - sql: a single statement with `$1`, `$2`… placeholders, each with an explicit cast.
    ///   - parameters: the placeholder values, in order.
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRows {
        LibPQThreadAudit.check()
        return try run(sql, parameters).rows()
    }

    /// Runs one statement and reads its result with `read`, in place (see ``PostgresResultReader``).
    func query<Value>(
        _ sql: String, _ parameters: [PostgresValue], read: (borrowing PostgresResultReader) throws(PostgresError) -> Value
    ) throws(PostgresError) -> Value {
        LibPQThreadAudit.check()
        let reader = PostgresResultReader(try run(sql, parameters))
        return try read(reader)
    }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> Int {
        LibPQThreadAudit.check()
        return try run(sql, parameters).affectedRows
    }

    /// The OID of the type `name` (`schema.type`), which a value in binary format names; looked up once a
    /// connection. A type made by a migration keeps its OID until it is dropped.
    func typeOID(of name: String) throws(PostgresError) -> UInt32 {
        if let known = typeOIDs.first(where: { $0.name == name }) { return known.oid }
        guard let oid = try query("SELECT $1::text::regtype::oid::bigint AS oid", [.text(name)]).first?.int("oid") else {
            throw .decoding("no OID for the type \(name)")
        }
        typeOIDs.append((name, UInt32(oid)))
        return UInt32(oid)
    }

    /// Runs a script of one or more statements without parameters (`PQexec`), as migrations need.
    /// The statements run in one implicit transaction unless the script has its own.
    public func simpleQuery(_ sql: String) throws(PostgresError) {
        LibPQThreadAudit.check()
        _ = try checkedResult(PQexec(raw, sql))
    }

    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws (rethrowing its
    /// error). A failing COMMIT throws, a lost connection as `PostgresError.connection` since the
    /// outcome is then unknown. Called inside another transaction it uses a savepoint, so the
    /// inner work can fail alone (for instance on a unique violation) without aborting the outer.
    @discardableResult
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        LibPQThreadAudit.check()
        let outermost = PQtransactionStatus(raw) == PQTRANS_IDLE
        let savepoint = "laurel_savepoint_\(transactionDepth + 1)"
        try simpleQuery(outermost ? "BEGIN" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        defer { transactionDepth -= 1 }

        let value: T
        do {
            value = try body(self)
        } catch {
            abandonQuietly(outermost ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)")
            throw error
        }

        if outermost {
            let tag = try checkedResult(PQexec(raw, "COMMIT")).commandTag
            // A transaction in which a statement failed (and the error was caught) ends in ROLLBACK.
            if tag == "ROLLBACK" {
                throw PostgresError.server(
                    sqlState: "25P02",
                    message: "the transaction was rolled back because a statement in it failed",
                    detail: nil,
                    constraint: nil
                )
            }
        } else {
            try simpleQuery("RELEASE SAVEPOINT \(savepoint)")
        }
        return value
    }

    /// Whether a transaction is open on the connection (begun, or failed and not yet ended).
    public var isInTransaction: Bool {
        PQtransactionStatus(raw) != PQTRANS_IDLE
    }

    /// The process id of the backend serving the connection (kept by libpq after the connection is lost).
    var backendPID: Int32 {
        PQbackendPID(raw)
    }

    /// True once libpq has seen the connection fail or the server has said it ends the session;
    /// a broken connection is never reused.
    var isBroken: Bool {
        PQstatus(raw) != CONNECTION_OK || noticeLogger.serverEndedSession
    }

    private func run(_ sql: String, _ parameters: [PostgresValue]) throws(PostgresError) -> LibPQResult {
        let values = CStringArray(parameters)
        // C strings end at NUL; the server would reject the character anyway, with this code.
        if let position = values.firstWithNUL {
            throw .server(
                sqlState: "22021",
                message: "invalid byte sequence for encoding \"UTF8\": 0x00",
                detail: "parameter $\(position + 1) contains a NUL character",
                constraint: nil
            )
        }
        let outsideTransaction = PQtransactionStatus(raw) == PQTRANS_IDLE
        do throws(PostgresError) {
            return try runOnce(sql, values, count: Int32(parameters.count))
        } catch where error.invalidatesPreparedStatements {
            // The table behind a cached statement changed shape (a migration ran), or the session's
            // statements were deallocated. Prepare afresh; retry only outside a transaction, since
            // inside one the error has already aborted it.
            forgetPreparedStatements(for: sql, all: error.sqlState == "26000")
            guard outsideTransaction else { throw error }
            logger.debug("Preparing a statement again", metadata: ["postgres.error": "\(error)"])
            return try runOnce(sql, values, count: Int32(parameters.count))
        }
    }

    private func runOnce(_ sql: String, _ values: CStringArray, count: Int32) throws(PostgresError) -> LibPQResult {
        let statement = try preparedStatementName(for: sql)
        let result = values.withNullTerminatedPointers { pointers in
            values.withLengthsAndFormats { lengths, formats in
                if let statement {
                    PQexecPrepared(raw, statement, count, pointers, lengths, formats, 0)
                } else {
                    PQexecParams(raw, sql, count, nil, pointers, lengths, formats, 0)
                }
            }
        }
        return try checkedResult(result)
    }

    /// The name of this connection's prepared statement for `sql`, preparing it on first use;
    /// nil when the cache is full and the statement should run unprepared.
    private func preparedStatementName(for sql: String) throws(PostgresError) -> String? {
        if let name = preparedStatements[sql] {
            return name
        }
        guard preparedStatements.count < Self.preparedStatementLimit else {
            return nil
        }
        preparedStatementSerial += 1
        let name = "laurel_\(preparedStatementSerial)"
        _ = try checkedResult(PQprepare(raw, name, sql, 0, nil))
        preparedStatements[sql] = name
        return name
    }

    private func forgetPreparedStatements(for sql: String, all: Bool) {
        if all {
            preparedStatements.removeAll()
        } else if let name = preparedStatements.removeValue(forKey: sql), !isBroken {
            // Fails inside an aborted transaction; the statement then lingers under a name that is
            // never used again, until the connection closes.
            if let result = PQexec(raw, "DEALLOCATE \(name)") {
                PQclear(result)
            }
        }
    }

    /// Ends a transaction after its body failed; a failure here is logged, since the body's error
    /// is the one that matters and a broken connection is discarded by its owner anyway.
    private func abandonQuietly(_ sql: String) {
        guard !isBroken else { return }
        do {
            try simpleQuery(sql)
        } catch {
            logger.debug("Could not roll back", metadata: ["postgres.error": "\(error)"])
        }
    }
}

/// A string as an SQL literal (standard_conforming_strings, on since PostgreSQL 9.1): quotes doubled.
private func sqlLiteral(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
}
