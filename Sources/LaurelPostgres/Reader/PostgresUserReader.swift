import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// One user's stored state read on one connection, inside the caller's snapshot (a repeatable-read transaction).
/// Every statement names the user, so no request can reach another user's rows.
struct PostgresUserReader: UserReader {
    let connection: PostgresConnection
    let user: UserID

    var userParameter: PostgresValue { .int(Int(user.rawValue)) }

    func standing() throws -> UserStanding {
        let row = try connection.query(
            """
            SELECT version, reload_version, rebuilt_version, last_seq, \(Self.figureColumns),
                   to_char(latest_score_day, 'YYYY-MM-DD') AS latest_score_day, latest_scores::text AS latest_scores
              FROM laurel.progress WHERE user_id = $1::bigint
            """, [userParameter]
        ).first.require()
        return UserStanding(
            version: Int64(try row.int("version")), reloadVersion: Int64(try row.int("reload_version")),
            rebuiltVersion: Int64(try row.int("rebuilt_version")), lastSeq: Int64(try row.int("last_seq")),
            figures: try Self.figures(row), allowance: try Self.allowance(row), latestScores: try Self.latestScores(row))
    }

    /// The latest day's scores from the columns `latest_score_day` (text) and `latest_scores` (JSON text, as
    /// `laurel.store_changes` stores it: `{"BOARD": [score, reached_us], ...}`), in the order stored.
    static func latestScores(_ row: PostgresRow) throws -> LatestDayScores {
        guard let day = try row.optionalString("latest_score_day").flatMap(LocalDay.init) else { return LatestDayScores() }
        guard let text = try row.optionalString("latest_scores") else { return LatestDayScores(day: day) }
        guard let scores = try JSONReader.read(text, { reader throws(JSONParseError) in try Self.scores(from: &reader) }) else {
            throw StoreError.failed("a stored latest day score is malformed: \(text)")
        }
        return LatestDayScores(day: day, scores: scores)
    }

    /// The scores of a JSON object `{"BOARD": [score, reached_us], ...}` (`laurel.progress.latest_scores`, and an
    /// announced change's), in its order: none for `null`, nil when one cannot be read.
    static func scores(from reader: inout JSONReader) throws(JSONParseError) -> [LatestDayScores.Score]? {
        if try reader.takeNull() { return [] }
        guard try reader.beginObjectIfPresent() else { return nil }
        var scores: [LatestDayScores.Score]? = []
        scores?.reserveCapacity(4)
        while let name = try reader.nextKey() {
            // [score, reached_us]
            var (score, reached, count): (Int?, Int?, Int) = (nil, nil, 0)
            if try reader.beginArrayIfPresent() {
                while try reader.nextElement() {
                    count += 1
                    switch count {
                    case 1: score = try reader.int()
                    case 2: reached = try reader.int()
                    default: try reader.skipValue()
                    }
                }
            }
            guard let board = LeaderboardBoard(name), count == 2, let score, let reached else {
                scores = nil
                continue
            }
            scores?.append(.init(board: board, score: score, reachedAt: PostgresTimestamp.date(microseconds: reached)))
        }
        return scores
    }

    /// The figure columns of `laurel.progress`, as ``figures(_:)`` and ``allowance(_:)`` read them.
    static let figureColumns = """
        xp, level, max_level, current_streak, longest_streak, streak_freezes, streak_at_risk,
        to_char(last_active_day, 'YYYY-MM-DD') AS last_active_day, to_char(streak_holds_through, 'YYYY-MM-DD') AS streak_holds_through,
        challenge_xp, unlocked, total_logs, active_days, to_char(goal_met_week, 'YYYY-MM-DD') AS goal_met_week, log_allowance, \(PostgresTimestamp.column("log_allowance_at", as: "log_allowance_us"))
        """

    static func figures(_ row: PostgresRow) throws -> ProgressFigures {
        var figures = ProgressFigures()
        figures.xp = try row.int("xp")
        figures.level = try row.int("level")
        figures.highestLevel = try row.int("max_level")
        figures.shownStreak = StreakState(
            current: try row.int("current_streak"), longest: try row.int("longest_streak"), freezes: try row.int("streak_freezes"),
            atRisk: try row.bool("streak_at_risk"), lastActiveDay: try row.optionalString("last_active_day").flatMap(LocalDay.init))
        figures.streakHoldsThrough = try row.optionalString("streak_holds_through").flatMap(LocalDay.init)
        figures.challengeXP = try row.int("challenge_xp")
        figures.unlocked = try row.int("unlocked")
        figures.totalLogs = try row.int("total_logs")
        figures.activeDays = try row.int("active_days")
        figures.goalMetWeek = try row.optionalString("goal_met_week").flatMap(LocalDay.init).map(\.isoWeek)
        return figures
    }

    static func allowance(_ row: PostgresRow) throws -> LogAllowance {
        LogAllowance(
            available: try row.optionalDouble("log_allowance"),
            at: try row.optionalInt("log_allowance_us").map(PostgresTimestamp.date(microseconds:)))
    }

    func settings() throws -> (current: UserSettings, history: StreakSettingsHistory) {
        var history = StreakSettingsHistory()
        var current: UserSettings?
        for row in try connection.query(
            """
            SELECT to_char(effective_day, 'YYYY-MM-DD') AS day, \(PostgresTimestamp.column("changed_at", as: "changed_us")), time_zone, rest_day, vacation, weekly_goal, reminder_window_minutes,
                   leaderboards
              FROM laurel.settings WHERE user_id = $1::bigint ORDER BY id
            """, [userParameter])
        {
            let day = try row.localDay("day")
            let settings = UserSettings(
                timeZone: try row.string("time_zone"), restDay: try row.optionalInt("rest_day").flatMap(Weekday.init(rawValue:)),
                vacation: try row.bool("vacation"), weeklyGoal: try row.int("weekly_goal"),
                reminderWindowMinutes: try row.int("reminder_window_minutes"), leaderboards: try row.bool("leaderboards"))
            history.setRestDay(settings.restDay, from: day)
            history.setVacation(settings.vacation, from: day)
            history.setWeeklyGoal(settings.weeklyGoal, from: day)
            history.setReminderWindow(settings.reminderWindowMinutes, from: day)
            history.setZone(settings.timeZone, from: PostgresTimestamp.date(microseconds: try row.int("changed_us")))
            current = settings
        }
        guard let current else { throw StoreError.unknownUser }
        return (current, history)
    }

    func subscription() throws -> SubscriptionState {
        let row = try connection.query(
            """
            SELECT s.status, \(PostgresTimestamp.column("s.ends_at", as: "ends_us")), u.trial_used
              FROM laurel.users u CROSS JOIN LATERAL laurel.subscription_at(u.id) s WHERE u.id = $1::bigint
            """, [userParameter]
        ).first.require()
        guard let status = SubscriptionState.Status(rawValue: try row.string("status")) else {
            throw StoreError.failed("unknown subscription status")
        }
        return SubscriptionState(
            status: status, endsAt: try row.optionalInt("ends_us").map(PostgresTimestamp.date(microseconds:)), trialUsed: try row.bool("trial_used"))
    }

    func subscriptionDocument() throws -> JSONObject {
        let row = try connection.query("SELECT laurel.subscription_document($1::bigint)::text AS document", [userParameter]).first.require()
        guard let text = row["document"] else { throw StoreError.unknownUser }
        guard case .object(let document) = try JSONParser.parse(text) else {
            throw StoreError.failed("the subscription document is not a JSON object")
        }
        return document
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

    func snapshot() throws -> ProgressSnapshot? {
        guard let row = try connection.query(
            """
            SELECT version, last_log_seq, last_lesson_seq, last_event_seq, last_reminder_seq, state::text AS state
              FROM laurel.progress_snapshots WHERE user_id = $1::bigint
            """, [userParameter]
        ).first, let accumulator = ProgressSnapshot.decodeState(try row.string("state")) else { return nil }
        let seqs = FactSeqs(
            log: Int64(try row.int("last_log_seq")), lesson: Int64(try row.int("last_lesson_seq")), event: Int64(try row.int("last_event_seq")),
            reminder: Int64(try row.int("last_reminder_seq")))
        return ProgressSnapshot(version: Int64(try row.int("version")), seqs: seqs, accumulator: accumulator)
    }

    func pushes(after seq: Int64, limit: Int) throws -> [StoredPush] {
        try connection.query(
            """
            SELECT seq, kind, data::text AS data, \(PostgresTimestamp.column("created_at", as: "at"))
              FROM laurel.pushes WHERE user_id = $1::bigint AND seq > $2::bigint ORDER BY seq LIMIT $3::bigint
            """,
            [userParameter, .int(Int(seq)), .int(limit)]
        ).map(Self.push)
    }

    static func push(_ row: PostgresRow) throws -> StoredPush {
        guard let kind = PushKind(rawValue: try row.string("kind")) else {
            throw StoreError.failed("stored push \(try row.int("seq")) is of an unknown kind")
        }
        // Compact, whoever stored it (SQL's json_build_object spaces its members).
        guard case .object(let data) = try JSONParser.parse(try row.string("data")) else {
            throw StoreError.failed("stored push \(try row.int("seq")) is not a JSON object")
        }
        return StoredPush(
            seq: Int64(try row.int("seq")), kind: kind, at: PostgresTimestamp.date(microseconds: try row.int("at")),
            data: JSONValue.object(data).serialized())
    }

    func lastPushSeq() throws -> Int64 {
        Int64(try connection.query("SELECT last_seq FROM laurel.progress WHERE user_id = $1::bigint", [userParameter]).first.require().int("last_seq"))
    }

    func accountDocument() throws -> JSONValue {
        try JSONParser.parse(try connection.query("SELECT laurel.account_document($1::bigint)::text AS doc", [userParameter]).first.require().string("doc"))
    }
}

extension Optional where Wrapped == PostgresRow {
    /// The row a statement must return; its absence means the user's rows are gone.
    func require() throws -> PostgresRow {
        guard let row = self else { throw StoreError.unknownUser }
        return row
    }
}
