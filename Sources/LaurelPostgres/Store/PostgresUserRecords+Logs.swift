import LaurelCore
import LaurelJSON
import LaurelStore

extension PostgresUserRecords {
    private static let logColumns = """
        id, activity_id, amount, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day, note,
        \(PostgresTimestamp.column("requested_at", as: "requested_us")), deleted_at IS NOT NULL AS deleted, response::text AS response,
        local_hour
        """

    func log(id: String) throws -> StoredLog? {
        try connection.query(
            "SELECT \(Self.logColumns) FROM laurel.logs WHERE user_id = $1::bigint AND id = $2::text", [userParameter, .text(id)]
        ).first.map(Self.log)
    }

    func insertLog(_ log: StoredLog) throws {
        try connection.execute(
            """
            INSERT INTO laurel.logs (user_id, id, activity_id, amount, at, day, note, requested_at, response, local_hour)
            VALUES ($1::bigint, $2::text, $3::text, $4::integer, \(PostgresTimestamp.parameter(5)), $6::date, $7::text,
                    \(PostgresTimestamp.parameter(8)), $9::json, $10::smallint)
            """,
            [userParameter, .text(log.id), .text(log.activityID), .int(log.amount), .int(PostgresTimestamp.microseconds(log.at)),
             .text(log.day.description), PostgresValue(log.note), log.requestedAt.map { .int(PostgresTimestamp.microseconds($0)) } ?? .null,
             log.response.map { .text($0.serialized()) } ?? .null, PostgresValue(log.localHour)])
    }

    func spendLogAllowance(_ limits: UserLimits) throws -> Bool {
        try connection.query(
            "SELECT laurel.spend_log_allowance($1::bigint, $2::float8, $3::float8) AS spent",
            [userParameter, .double(limits.logsPerSecond), .double(Double(limits.logBurst))]
        ).first.require().bool("spent")
    }

    func setLogResponse(id: String, response: JSONValue) throws {
        try connection.execute(
            "UPDATE laurel.logs SET response = $3::json WHERE user_id = $1::bigint AND id = $2::text",
            [userParameter, .text(id), .text(response.serialized())])
    }

    func markLogDeleted(id: String) throws {
        try connection.execute(
            "UPDATE laurel.logs SET deleted_at = now() WHERE user_id = $1::bigint AND id = $2::text AND deleted_at IS NULL",
            [userParameter, .text(id)])
    }

    func logs(_ query: LogQuery) throws -> [StoredLog] {
        try connection.query(
            """
            SELECT \(Self.logColumns) FROM laurel.logs
             WHERE user_id = $1::bigint AND deleted_at IS NULL
               AND ($2::text IS NULL OR activity_id = $2::text)
               AND ($3::date IS NULL OR day >= $3::date) AND ($4::date IS NULL OR day <= $4::date)
               AND ($5::text IS NULL OR (at, seq) < (SELECT c.at, c.seq FROM laurel.logs c WHERE c.user_id = $1::bigint AND c.id = $5::text))
             ORDER BY at DESC, seq DESC LIMIT $6::integer
            """,
            [userParameter, PostgresValue(query.activityID), PostgresValue(query.fromDay), PostgresValue(query.toDay),
             PostgresValue(query.beforeLogID), .int(query.limit)]
        ).map(Self.log)
    }

    private static func log(_ row: PostgresRow) throws -> StoredLog {
        StoredLog(
            id: try row.string("id"), activityID: try row.string("activity_id"), amount: try row.int("amount"),
            at: PostgresTimestamp.date(microseconds: try row.int("at_us")), day: try row.localDay("day"), note: row["note"],
            requestedAt: try row.optionalInt("requested_us").map { PostgresTimestamp.date(microseconds: $0) },
            deleted: try row.bool("deleted"), response: try row["response"].map { try JSONParser.parse($0) },
            localHour: try row.optionalInt("local_hour"))
    }
}
