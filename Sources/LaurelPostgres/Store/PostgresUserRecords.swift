import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// One user's records inside one transaction on one connection. Every statement names the user, so no request
/// can reach another user's rows.
struct PostgresUserRecords: UserRecords {
    let connection: PostgresConnection
    let user: UserID
    /// In a writing unit of work, the state version it moved the user to when it took the lock.
    let lockedVersion: Int64?

    var userParameter: PostgresValue { .int(Int(user.rawValue)) }

    func currentSettings() throws -> UserSettings {
        let row = try connection.query(
            "SELECT time_zone, rest_day, vacation FROM laurel.settings WHERE user_id = $1::bigint ORDER BY id DESC LIMIT 1",
            [userParameter]
        ).first.require()
        return UserSettings(timeZone: try row.string("time_zone"), restDay: try row.optionalInt("rest_day").flatMap(Weekday.init(rawValue:)), vacation: try row.bool("vacation"))
    }

    func appendSettings(_ settings: UserSettings) throws {
        try connection.execute(
            """
            INSERT INTO laurel.settings (user_id, effective_day, time_zone, rest_day, vacation)
            VALUES ($1::bigint, (now() AT TIME ZONE $2::text)::date, $2::text, $3::smallint, $4::boolean)
            """,
            [userParameter, .text(settings.timeZone), settings.restDay.map { .int($0.rawValue) } ?? .null, .bool(settings.vacation)])
    }

    func streakSettingsHistory() throws -> StreakSettingsHistory {
        var history = StreakSettingsHistory(restDayChanges: [], vacationChanges: [])
        let rows = try connection.query(
            "SELECT to_char(effective_day, 'YYYY-MM-DD') AS day, rest_day, vacation FROM laurel.settings WHERE user_id = $1::bigint ORDER BY id",
            [userParameter])
        for row in rows {
            guard let day = LocalDay(try row.string("day")) else { throw StoreError.failed("stored settings have a bad day") }
            history.setRestDay(try row.optionalInt("rest_day").flatMap(Weekday.init(rawValue:)), from: day)
            history.setVacation(try row.bool("vacation"), from: day)
        }
        return history
    }

    func announcePushes(through seq: Int64) throws {
        try connection.execute(
            "SELECT pg_notify('laurel_events', json_build_object('event', 'pushes_stored', 'user_id', $1::bigint, 'seq', $2::bigint)::text)",
            [userParameter, .int(Int(seq))])
    }

    func subscription() throws -> SubscriptionState {
        let row = try connection.query(
            """
            SELECT s.tier, s.status, \(PostgresTimestamp.column("s.ends_at", as: "ends_us")), u.trial_used
              FROM laurel.users u CROSS JOIN LATERAL laurel.subscription_at(u.id) s WHERE u.id = $1::bigint
            """, [userParameter]
        ).first.require()
        guard let status = SubscriptionState.Status(rawValue: try row.string("status")) else {
            throw StoreError.failed("unknown subscription status")
        }
        return SubscriptionState(
            status: status, endsAt: try row.optionalInt("ends_us").map { PostgresTimestamp.date(microseconds: $0) },
            trialUsed: try row.bool("trial_used"))
    }

    func progress() throws -> StoredProgress {
        let rows = try connection.query(
            """
            SELECT xp, level, max_level, current_streak, longest_streak, shown_streak::text AS shown_streak, state_version
              FROM laurel.progress WHERE user_id = $1::bigint
            """,
            [userParameter])
        guard let row = rows.first else { return StoredProgress(stateVersion: -1) }
        return try Self.figures(row, stateVersion: Int64(try row.int("state_version")))
    }

    /// The figures of a `laurel.progress` row (xp, level, max_level, current_streak, longest_streak, and
    /// shown_streak as text), without the engine state.
    static func figures(_ row: PostgresRow, stateVersion: Int64) throws -> StoredProgress {
        StoredProgress(
            xp: try row.int("xp"), level: try row.int("level"), maxLevel: try row.int("max_level"),
            currentStreak: try row.int("current_streak"), longestStreak: try row.int("longest_streak"),
            shownStreak: try row["shown_streak"].flatMap { try JSONParser.parse($0).objectValue.flatMap(StreakState.init(json:)) },
            stateVersion: stateVersion)
    }

    func stateVersion() throws -> Int64 {
        if let lockedVersion { return lockedVersion }
        return Int64(try connection.query("SELECT state_version FROM laurel.users WHERE id = $1::bigint", [userParameter]).first.require().int("state_version"))
    }

    func progressState() throws -> String? {
        try connection.query("SELECT state::text AS state FROM laurel.progress WHERE user_id = $1::bigint", [userParameter]).first?["state"]
    }

    func saveProgress(_ progress: StoredProgress) throws {
        // The state, when given, is the one at the user's current version; without one the stored state stays
        // as it is (and, being older than the version, unused).
        try connection.execute(
            """
            INSERT INTO laurel.progress
                   (user_id, xp, level, max_level, current_streak, longest_streak, state, state_version, shown_streak,
                    streak_holds_through, updated_at)
            VALUES ($1::bigint, $2::bigint, $3::integer, $4::integer, $5::integer, $6::integer, $7::json,
                    CASE WHEN $7::json IS NULL THEN -1 ELSE $8::bigint END, $9::json, $10::date, now())
            ON CONFLICT (user_id) DO UPDATE SET xp = EXCLUDED.xp, level = EXCLUDED.level, max_level = EXCLUDED.max_level,
                current_streak = EXCLUDED.current_streak, longest_streak = EXCLUDED.longest_streak,
                shown_streak = coalesce(EXCLUDED.shown_streak, laurel.progress.shown_streak),
                streak_holds_through = EXCLUDED.streak_holds_through,
                state = coalesce(EXCLUDED.state, laurel.progress.state),
                state_version = CASE WHEN EXCLUDED.state IS NULL THEN laurel.progress.state_version ELSE EXCLUDED.state_version END,
                updated_at = now()
            """,
            [userParameter, .int(progress.xp), .int(progress.level), .int(progress.maxLevel), .int(progress.currentStreak),
             .int(progress.longestStreak), PostgresValue(progress.state), .int(Int(try stateVersion())),
             PostgresValue(progress.shownStreak.map { JSONValue.object($0.json).serialized() }), PostgresValue(progress.streakHoldsThrough)])
    }

    func appendPush(_ push: PushDraft) throws -> StoredPush {
        let row = try connection.query(
            """
            WITH next AS (UPDATE laurel.users SET last_seq = last_seq + 1 WHERE id = $1::bigint RETURNING last_seq)
            INSERT INTO laurel.pushes (user_id, seq, kind, data)
            SELECT $1::bigint, next.last_seq, $2::text, $3::json FROM next
            RETURNING seq, \(PostgresTimestamp.column("created_at", as: "at"))
            """,
            [userParameter, .text(push.kind.rawValue), .text(JSONValue.object(push.data).serialized())]
        ).first.require()
        return push.stored(seq: Int64(try row.int("seq")), at: PostgresTimestamp.date(microseconds: try row.int("at")))
    }

    func pushes(after seq: Int64, limit: Int) throws -> [StoredPush] {
        try connection.query(
            """
            SELECT seq, kind, data::text AS data, \(PostgresTimestamp.column("created_at", as: "at"))
              FROM laurel.pushes WHERE user_id = $1::bigint AND seq > $2::bigint ORDER BY seq LIMIT $3::bigint
            """,
            [userParameter, .int(Int(seq)), .int(limit)]
        ).map { row in
            guard case .object(let data) = try JSONParser.parse(try row.string("data")) else {
                throw StoreError.failed("stored push \(try row.int("seq")) is not a JSON object")
            }
            guard let kind = PushKind(rawValue: try row.string("kind")) else {
                throw StoreError.failed("stored push \(try row.int("seq")) is of an unknown kind")
            }
            return StoredPush(seq: Int64(try row.int("seq")), kind: kind,
                              at: PostgresTimestamp.date(microseconds: try row.int("at")), data: data)
        }
    }

    func lastPushSeq() throws -> Int64 {
        Int64(try connection.query("SELECT last_seq FROM laurel.users WHERE id = $1::bigint", [userParameter]).first.require().int("last_seq"))
    }
}

extension Optional where Wrapped == PostgresRow {
    /// The row a statement must return; its absence means the user's rows are gone.
    func require() throws -> PostgresRow {
        guard let row = self else { throw StoreError.unknownUser }
        return row
    }
}
