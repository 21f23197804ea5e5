import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// The facts the engine counts beyond logs (lessons, events), the engine's inputs, and unlocks.
extension PostgresUserRecords {
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

    func liveLogs(afterSeq seq: Int64) throws -> [(seq: Int64, fact: LoggedFact)] {
        try connection.query(
            """
            SELECT seq, id, activity_id, amount, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day, local_hour
              FROM laurel.logs WHERE user_id = $1::bigint AND deleted_at IS NULL AND seq > $2::bigint ORDER BY seq
            """, [userParameter, .int(Int(seq))]
        ).map { (Int64(try $0.int("seq")), try Self.fact($0)) }
    }

    func lastLogSeq() throws -> Int64 {
        // Live logs by the (user_id, seq) index; a deleted log newer than all of them changes no figure.
        Int64(try connection.query(
            "SELECT coalesce(max(seq), 0) AS seq FROM laurel.logs WHERE user_id = $1::bigint AND deleted_at IS NULL", [userParameter]
        ).first.require().int("seq"))
    }

    func allFacts() throws -> ProgressFacts {
        let logs = try connection.query(
            """
            SELECT id, activity_id, amount, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day, local_hour
              FROM laurel.logs WHERE user_id = $1::bigint AND deleted_at IS NULL ORDER BY day, at
            """, [userParameter]
        ).map(Self.fact)
        let lessons = try connection.query(
            """
            SELECT lesson_id, category, to_char(day, 'YYYY-MM-DD') AS day FROM laurel.lesson_completions
             WHERE user_id = $1::bigint ORDER BY at, created_at
            """, [userParameter]
        ).map { row in
            LessonCompletion(lesson: try row.string("lesson_id"), category: try row.string("category"), day: try row.localDay("day"))
        }
        let events = try connection.query(
            "SELECT name, \(PostgresTimestamp.column("at", as: "at_us")) FROM laurel.reported_events WHERE user_id = $1::bigint ORDER BY at",
            [userParameter]
        ).map { ReportedEvent(name: try $0.string("name"), at: PostgresTimestamp.date(microseconds: try $0.int("at_us"))) }
        return ProgressFacts(logs: logs, lessons: lessons, events: events)
    }

    func lessonCompletion(id: String) throws -> StoredLesson? {
        try connection.query(
            """
            SELECT id, lesson_id, category, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day,
                   \(PostgresTimestamp.column("requested_at", as: "requested_us")), response::text AS response
              FROM laurel.lesson_completions WHERE user_id = $1::bigint AND id = $2::text
            """, [userParameter, .text(id)]
        ).first.map { row in
            StoredLesson(
                id: try row.string("id"), lessonID: try row.string("lesson_id"), category: try row.string("category"),
                at: PostgresTimestamp.date(microseconds: try row.int("at_us")), day: try row.localDay("day"),
                requestedAt: try row.optionalInt("requested_us").map { PostgresTimestamp.date(microseconds: $0) },
                response: try row["response"].map { try JSONParser.parse($0) })
        }
    }

    func insertLessonCompletion(_ lesson: StoredLesson) throws {
        try connection.execute(
            """
            INSERT INTO laurel.lesson_completions (user_id, id, lesson_id, category, at, day, requested_at, response)
            VALUES ($1::bigint, $2::text, $3::text, $4::text, \(PostgresTimestamp.parameter(5)), $6::date, \(PostgresTimestamp.parameter(7)), $8::json)
            """,
            [userParameter, .text(lesson.id), .text(lesson.lessonID), .text(lesson.category), .int(PostgresTimestamp.microseconds(lesson.at)),
             .text(lesson.day.description), lesson.requestedAt.map { .int(PostgresTimestamp.microseconds($0)) } ?? .null,
             lesson.response.map { .text($0.serialized()) } ?? .null])
    }

    func setLessonResponse(id: String, response: JSONValue) throws {
        try connection.execute(
            "UPDATE laurel.lesson_completions SET response = $3::json WHERE user_id = $1::bigint AND id = $2::text",
            [userParameter, .text(id), .text(response.serialized())])
    }

    func setReportedEventResponse(id: String, response: JSONValue) throws {
        try connection.execute(
            "UPDATE laurel.reported_events SET response = $3::json WHERE user_id = $1::bigint AND id = $2::text",
            [userParameter, .text(id), .text(response.serialized())])
    }

    func reportedEvent(id: String) throws -> StoredEvent? {
        try connection.query(
            """
            SELECT id, name, \(PostgresTimestamp.column("at", as: "at_us")), \(PostgresTimestamp.column("requested_at", as: "requested_us")),
                   response::text AS response
              FROM laurel.reported_events WHERE user_id = $1::bigint AND id = $2::text
            """, [userParameter, .text(id)]
        ).first.map { row in
            StoredEvent(
                id: try row.string("id"), name: try row.string("name"), at: PostgresTimestamp.date(microseconds: try row.int("at_us")),
                requestedAt: try row.optionalInt("requested_us").map { PostgresTimestamp.date(microseconds: $0) },
                response: try row["response"].map { try JSONParser.parse($0) })
        }
    }

    func insertReportedEvent(_ event: StoredEvent) throws {
        try connection.execute(
            """
            INSERT INTO laurel.reported_events (user_id, id, name, at, requested_at, response)
            VALUES ($1::bigint, $2::text, $3::text, \(PostgresTimestamp.parameter(4)), \(PostgresTimestamp.parameter(5)), $6::json)
            """,
            [userParameter, .text(event.id), .text(event.name), .int(PostgresTimestamp.microseconds(event.at)),
             event.requestedAt.map { .int(PostgresTimestamp.microseconds($0)) } ?? .null,
             event.response.map { .text($0.serialized()) } ?? .null])
    }

    func unlocks() throws -> [String: Date] {
        var unlocks: [String: Date] = [:]
        for row in try connection.query(
            "SELECT achievement_id, \(PostgresTimestamp.column("unlocked_at", as: "at_us")) FROM laurel.unlocks WHERE user_id = $1::bigint",
            [userParameter])
        {
            unlocks[try row.string("achievement_id")] = PostgresTimestamp.date(microseconds: try row.int("at_us"))
        }
        return unlocks
    }

    func insertUnlock(achievementID: String, at: Date) throws -> Bool {
        let inserted = try connection.execute(
            """
            INSERT INTO laurel.unlocks (user_id, achievement_id, unlocked_at) VALUES ($1::bigint, $2::text, \(PostgresTimestamp.parameter(3)))
            ON CONFLICT (user_id, achievement_id) DO NOTHING
            """, [userParameter, .text(achievementID), .int(PostgresTimestamp.microseconds(at))])
        return inserted == 1
    }

    static func fact(_ row: PostgresRow) throws -> LoggedFact {
        let at = PostgresTimestamp.date(microseconds: try row.int("at_us"))
        // Logs made before local hours were stored count as UTC hours.
        let hour = try row.optionalInt("local_hour") ?? LocalDateTime(of: at, in: .gmt).hour
        return LoggedFact(
            id: try row.string("id"), activity: try row.string("activity_id"), amount: try row.int("amount"), at: at,
            day: try row.localDay("day"), localHour: hour)
    }
}
