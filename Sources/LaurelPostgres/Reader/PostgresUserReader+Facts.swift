import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// Facts: the live logs, lesson completions and events a running state counts, a fact by its idempotency key, and
/// the pages LOGS shows.
extension PostgresUserReader {
    func facts(after seqs: FactSeqs) throws -> (facts: ProgressFacts, newest: FactSeqs) {
        var newest = seqs
        let logs = try connection.query(
            """
            SELECT seq, id, activity_id, amount, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day, local_hour
              FROM laurel.logs WHERE user_id = $1::bigint AND deleted_at IS NULL AND seq > $2::bigint ORDER BY seq
            """, [userParameter, .int(Int(seqs.log))]
        ).map { row in
            newest.log = max(newest.log, Int64(try row.int("seq")))
            return try Self.fact(row)
        }
        let lessons = try connection.query(
            """
            SELECT seq, lesson_id, category, to_char(day, 'YYYY-MM-DD') AS day FROM laurel.lesson_completions
             WHERE user_id = $1::bigint AND seq > $2::bigint ORDER BY seq
            """, [userParameter, .int(Int(seqs.lesson))]
        ).map { row in
            newest.lesson = max(newest.lesson, Int64(try row.int("seq")))
            return LessonCompletion(lesson: try row.string("lesson_id"), category: try row.string("category"), day: try row.localDay("day"))
        }
        let events = try connection.query(
            """
            SELECT seq, name, \(PostgresTimestamp.column("at", as: "at_us")) FROM laurel.reported_events
             WHERE user_id = $1::bigint AND seq > $2::bigint ORDER BY seq
            """, [userParameter, .int(Int(seqs.event))]
        ).map { row in
            newest.event = max(newest.event, Int64(try row.int("seq")))
            return ReportedEvent(name: try row.string("name"), at: PostgresTimestamp.date(microseconds: try row.int("at_us")))
        }
        let reminders = try connection.query(
            """
            SELECT seq, id, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day, window_minutes, answered
              FROM laurel.reminders WHERE user_id = $1::bigint AND seq > $2::bigint ORDER BY seq
            """, [userParameter, .int(Int(seqs.reminder))]
        ).map { row in
            newest.reminder = max(newest.reminder, Int64(try row.int("seq")))
            return ReminderFact(
                id: try row.string("id"), at: PostgresTimestamp.date(microseconds: try row.int("at_us")), day: try row.localDay("day"),
                windowMinutes: try row.int("window_minutes"), answered: try row.bool("answered"))
        }
        // A deleted log newer than every live one changes no figure, and is never added again.
        newest.log = max(newest.log, Int64(try connection.query(
            "SELECT coalesce(max(seq), 0) AS seq FROM laurel.logs WHERE user_id = $1::bigint", [userParameter]
        ).first.require().int("seq")))
        return (ProgressFacts(logs: logs, lessons: lessons, events: events, reminders: reminders), newest)
    }

    func storedFact(_ kind: FactKind, id: String) throws -> StoredFact? {
        switch kind {
        case .log:
            return try connection.query(
                """
                SELECT activity_id, amount, note, \(PostgresTimestamp.column("requested_at", as: "requested_us")), response::text AS response
                  FROM laurel.logs WHERE user_id = $1::bigint AND id = $2::text
                """, [userParameter, .text(id)]
            ).first.map { row in
                StoredFact(
                    content: .log(activityID: try row.string("activity_id"), amount: try row.int("amount"), note: row["note"]),
                    requestedAt: try Self.requestedAt(row), answer: row["response"])
            }
        case .lesson:
            return try connection.query(
                """
                SELECT lesson_id, \(PostgresTimestamp.column("requested_at", as: "requested_us")), response::text AS response
                  FROM laurel.lesson_completions WHERE user_id = $1::bigint AND id = $2::text
                """, [userParameter, .text(id)]
            ).first.map { row in
                StoredFact(content: .lesson(id: try row.string("lesson_id")), requestedAt: try Self.requestedAt(row), answer: row["response"])
            }
        case .event:
            return try connection.query(
                """
                SELECT name, \(PostgresTimestamp.column("requested_at", as: "requested_us")), response::text AS response
                  FROM laurel.reported_events WHERE user_id = $1::bigint AND id = $2::text
                """, [userParameter, .text(id)]
            ).first.map { row in
                StoredFact(content: .event(name: try row.string("name")), requestedAt: try Self.requestedAt(row), answer: row["response"])
            }
        case .reminder:
            return try connection.query(
                """
                SELECT \(PostgresTimestamp.column("requested_at", as: "requested_us")), response::text AS response
                  FROM laurel.reminders WHERE user_id = $1::bigint AND id = $2::text
                """, [userParameter, .text(id)]
            ).first.map { row in
                StoredFact(content: .reminder, requestedAt: try Self.requestedAt(row), answer: row["response"])
            }
        }
    }

    func log(id: String) throws -> StoredLog? {
        try connection.query(
            """
            SELECT id, activity_id, amount, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day, local_hour, note,
                   deleted_at IS NOT NULL AS deleted
              FROM laurel.logs WHERE user_id = $1::bigint AND id = $2::text
            """, [userParameter, .text(id)]
        ).first.map { row in
            StoredLog(
                id: try row.string("id"), activityID: try row.string("activity_id"), amount: try row.int("amount"),
                at: PostgresTimestamp.date(microseconds: try row.int("at_us")), day: try row.localDay("day"), localHour: try row.int("local_hour"),
                note: row["note"], deleted: try row.bool("deleted"))
        }
    }

    func logFacts(activity: String, from: Date, through: Date) throws -> [LoggedFact] {
        try connection.query(
            """
            SELECT id, activity_id, amount, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day, local_hour
              FROM laurel.logs
             WHERE user_id = $1::bigint AND deleted_at IS NULL AND activity_id = $2::text
               AND at BETWEEN \(PostgresTimestamp.parameter(3)) AND \(PostgresTimestamp.parameter(4))
            """,
            [userParameter, .text(activity), .int(PostgresTimestamp.microseconds(from)), .int(PostgresTimestamp.microseconds(through))]
        ).map(Self.fact)
    }

    func logFacts(from: Date, through: Date) throws -> [LoggedFact] {
        try connection.query(
            """
            SELECT id, activity_id, amount, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day, local_hour
              FROM laurel.logs
             WHERE user_id = $1::bigint AND deleted_at IS NULL
               AND at BETWEEN \(PostgresTimestamp.parameter(2)) AND \(PostgresTimestamp.parameter(3))
            """,
            [userParameter, .int(PostgresTimestamp.microseconds(from)), .int(PostgresTimestamp.microseconds(through))]
        ).map(Self.fact)
    }

    func logs(_ query: LogQuery) throws -> [ListedLog] {
        try connection.query(
            """
            SELECT id, activity_id, amount, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day, note
              FROM laurel.logs
             WHERE user_id = $1::bigint AND deleted_at IS NULL
               AND ($2::text IS NULL OR activity_id = $2::text)
               AND ($3::date IS NULL OR day >= $3::date) AND ($4::date IS NULL OR day <= $4::date)
               AND ($5::text IS NULL OR (at, seq) < (SELECT c.at, c.seq FROM laurel.logs c WHERE c.user_id = $1::bigint AND c.id = $5::text))
             ORDER BY at DESC, seq DESC LIMIT $6::integer
            """,
            [userParameter, PostgresValue(query.activityID), PostgresValue(query.fromDay), PostgresValue(query.toDay),
             PostgresValue(query.beforeLogID), .int(query.limit)]
        ).map { row in
            ListedLog(
                id: try row.string("id"), activityID: try row.string("activity_id"), amount: try row.int("amount"),
                at: PostgresTimestamp.date(microseconds: try row.int("at_us")), day: try row.localDay("day"), note: row["note"])
        }
    }

    /// A live log from a row with `id`, `activity_id`, `amount`, `at_us`, `day` and `local_hour`.
    static func fact(_ row: PostgresRow) throws -> LoggedFact {
        LoggedFact(
            id: try row.string("id"), activity: try row.string("activity_id"), amount: try row.int("amount"),
            at: PostgresTimestamp.date(microseconds: try row.int("at_us")), day: try row.localDay("day"), localHour: try row.int("local_hour"))
    }

    private static func requestedAt(_ row: PostgresRow) throws -> Date? {
        try row.optionalInt("requested_us").map(PostgresTimestamp.date(microseconds:))
    }
}
