import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// A session catching up with LOGs another instance stored: one statement, outside a transaction (a single
/// statement sees one snapshot), checked against the run of versions only LOG commits made (sql/0010). The
/// statement is `laurel.logs_since` (sql/0018).
extension PostgresStore {
    public func logsSince(
        user: UserID, version: Int64, lastSeq: Int64, afterLogSeq: Int64, challengesOf day: LocalDay?
    ) async throws(StoreError) -> LogsSince? {
        let (daily, weekly) = (day.map { ChallengePeriod.daily.start(of: $0).description }, day.map { ChallengePeriod.weekly.start(of: $0).description })
        do {
            return try await pool.withConnection { connection in
                // One row per log stored after `afterLogSeq` (or one without a log), each with the user's figures
                // (sql/0018: a plan made once per connection).
                let rows = try connection.query(
                    "SELECT * FROM laurel.logs_since($1::bigint, $2::bigint, $3::bigint, $4::bigint, $5::date, $6::date) ORDER BY seq",
                    [.int(Int(user.rawValue)), .int(Int(version)), .int(Int(lastSeq)), .int(Int(afterLogSeq)),
                     daily.map(PostgresValue.text) ?? .null, weekly.map(PostgresValue.text) ?? .null])
                guard let first = rows.first else { throw StoreError.unknownUser }
                guard try first.bool("logs_only"), first["xp"] != nil else { return nil }
                guard let unlocks = try Self.moments(first.string("unlocks")) else { return nil }
                let challenges = try Self.challenges(first.string("challenges"))
                let figures = try PostgresUserRecords.figures(first, stateVersion: -1)
                let logs = try rows.filter { $0["seq"] != nil }.map { row in
                    LogsSince.LoggedLog(seq: Int64(try row.int("seq")), fact: try PostgresUserRecords.fact(row))
                }
                return LogsSince(
                    version: Int64(try first.int("state_version")), lastSeq: Int64(try first.int("last_seq")), logs: logs,
                    unlocks: unlocks, challenges: challenges, challengeXP: try first.int("challenge_xp"),
                    figures: figures)
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// Stored challenges from the JSON the statement makes of their rows.
    private static func challenges(_ text: String) throws -> [StoredChallenge] {
        try (JSONParser.parse(text).arrayValue ?? []).map { value in
            let row = value.objectValue ?? [:]
            guard let period = row["period"]?.stringValue.flatMap(ChallengePeriod.init(rawValue:)),
                  let kind = row["kind"]?.stringValue.flatMap(ChallengeKind.init(rawValue:)),
                  let start = row["start"]?.stringValue.flatMap({ LocalDay($0) }),
                  let slot = row["slot"]?.intValue, let title = row["title"]?.stringValue, let target = row["target"]?.intValue,
                  let xp = row["xp"]?.intValue else { throw StoreError.failed("a stored challenge could not be read") }
            let choice = ChallengeChoice(
                slot: slot, kind: kind, period: period, periodStart: start, target: target, xp: xp, title: title,
                activity: row["activity_id"]?.stringValue, hour: row["hour"]?.intValue)
            return StoredChallenge(choice: choice, completedAt: row["completed_us"]?.intValue.map(PostgresTimestamp.date(microseconds:)))
        }
    }

    /// A JSON object of microsecond timestamps by name, as `json_object_agg` makes it; nil when one is not a number.
    private static func moments(_ text: String) throws -> [String: Date]? {
        var moments: [String: Date] = [:]
        for (name, micros) in try JSONParser.parse(text).objectValue ?? [:] {
            guard let micros = micros.intValue else { return nil }
            moments[name] = PostgresTimestamp.date(microseconds: micros)
        }
        return moments
    }
}
