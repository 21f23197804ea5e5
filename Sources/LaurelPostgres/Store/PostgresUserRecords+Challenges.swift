import Foundation
import LaurelCore
import LaurelStore

/// The user's challenges (`laurel.challenges`, sql/0013) and the facts that challenge progress and choosing read.
extension PostgresUserRecords {
    func challenges(_ period: ChallengePeriod, startingOn start: LocalDay) throws -> [StoredChallenge] {
        try connection.query(
            """
            SELECT slot, kind, title, target, xp, activity_id, hour, to_char(period_start, 'YYYY-MM-DD') AS start,
                   \(PostgresTimestamp.column("completed_at", as: "completed_us"))
              FROM laurel.challenges WHERE user_id = $1::bigint AND period = $2::text AND period_start = $3::date ORDER BY slot
            """, [userParameter, .text(period.rawValue), .text(start.description)]
        ).map { row in try Self.challenge(row, period: period) }
    }

    func storeChallenges(_ choices: [ChallengeChoice], period: ChallengePeriod, startingOn start: LocalDay) throws -> [StoredChallenge] {
        // The statement a session's choice goes through too; the transaction holds the user's lock already.
        try PostgresStore.storeChallenges(choices, of: user, on: connection)
            .filter { $0.choice.period == period && $0.choice.periodStart == start }
    }

    func completeChallenge(_ challenge: ChallengeChoice, at: Date) throws -> Bool {
        try connection.execute(
            """
            UPDATE laurel.challenges SET completed_at = \(PostgresTimestamp.parameter(5))
             WHERE user_id = $1::bigint AND period = $2::text AND period_start = $3::date AND slot = $4::smallint AND completed_at IS NULL
            """,
            [userParameter, .text(challenge.period.rawValue), .text(challenge.periodStart.description), .int(challenge.slot),
             .int(PostgresTimestamp.microseconds(at))]) == 1
    }

    func challengeXP() throws -> Int {
        try connection.query("SELECT laurel.challenge_xp($1::bigint) AS xp", [userParameter]).first.require().int("xp")
    }

    func challengeFacts(from first: LocalDay, through last: LocalDay) throws -> ChallengePeriodFacts {
        let logs = try connection.query(
            """
            SELECT id, activity_id, amount, \(PostgresTimestamp.column("at", as: "at_us")), to_char(day, 'YYYY-MM-DD') AS day, local_hour
              FROM laurel.logs
             WHERE user_id = $1::bigint AND deleted_at IS NULL AND day BETWEEN $2::date AND $3::date ORDER BY day, at, seq
            """, [userParameter, .text(first.description), .text(last.description)]
        ).map(Self.fact)
        let lessonDays = try connection.query(
            """
            SELECT to_char(day, 'YYYY-MM-DD') AS day FROM laurel.lesson_completions
             WHERE user_id = $1::bigint AND day BETWEEN $2::date AND $3::date ORDER BY day
            """, [userParameter, .text(first.description), .text(last.description)]
        ).map { try $0.localDay("day") }
        return ChallengePeriodFacts(logs: logs, lessonDays: lessonDays)
    }

    func activeDayFigures(before day: LocalDay, count: Int) throws -> [ChallengeHistory.Day] {
        let rows = try connection.query(
            """
            WITH facts AS (
                SELECT day, activity_id, amount, 0 AS lessons FROM laurel.logs
                 WHERE user_id = $1::bigint AND deleted_at IS NULL AND day < $2::date
                UNION ALL
                SELECT day, NULL, 0, 1 FROM laurel.lesson_completions WHERE user_id = $1::bigint AND day < $2::date
            ), days AS (
                SELECT DISTINCT day FROM facts ORDER BY day DESC LIMIT $3::integer
            )
            SELECT to_char(f.day, 'YYYY-MM-DD') AS day, f.activity_id, count(*) FILTER (WHERE f.lessons = 0) AS logs,
                   sum(f.amount) AS amount, sum(f.lessons) AS lessons
              FROM facts f JOIN days d ON d.day = f.day
             GROUP BY f.day, f.activity_id ORDER BY f.day
            """, [userParameter, .text(day.description), .int(count)])
        var figures: [ChallengeHistory.Day] = []
        for row in rows {
            let day = try row.localDay("day")
            if figures.last?.day != day {
                figures.append(ChallengeHistory.Day(day: day, logs: 0, amounts: [:], logsByActivity: [:], lessons: 0))
            }
            if let activity = try row.optionalString("activity_id") {
                let logs = try row.int("logs")
                figures[figures.count - 1].logs += logs
                figures[figures.count - 1].logsByActivity[activity, default: 0] += logs
                figures[figures.count - 1].amounts[activity, default: 0] += try row.int("amount")
            } else {
                figures[figures.count - 1].lessons += try row.int("lessons")
            }
        }
        return figures
    }

    func activitiesLogged(from first: LocalDay, through last: LocalDay) throws -> [String] {
        try connection.query(
            """
            SELECT activity_id FROM laurel.logs
             WHERE user_id = $1::bigint AND deleted_at IS NULL AND day BETWEEN $2::date AND $3::date
             GROUP BY activity_id ORDER BY count(*) DESC, activity_id
            """, [userParameter, .text(first.description), .text(last.description)]
        ).map { try $0.string("activity_id") }
    }

    /// A stored challenge from a row with the columns of ``challenges(_:startingOn:)``.
    static func challenge(_ row: PostgresRow, period: ChallengePeriod) throws -> StoredChallenge {
        guard let kind = ChallengeKind(rawValue: try row.string("kind")) else {
            throw StoreError.failed("a stored challenge has an unknown kind")
        }
        let choice = ChallengeChoice(
            slot: try row.int("slot"), kind: kind, period: period, periodStart: try row.localDay("start"), target: try row.int("target"),
            xp: try row.int("xp"), title: try row.string("title"), activity: try row.optionalString("activity_id"),
            hour: try row.optionalInt("hour"))
        let completed = try row.optionalInt("completed_us").map(PostgresTimestamp.date(microseconds:))
        return StoredChallenge(choice: choice, completedAt: completed)
    }
}
