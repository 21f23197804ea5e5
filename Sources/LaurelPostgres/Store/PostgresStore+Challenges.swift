import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// Choosing a period's challenges outside a transaction of the user's (`laurel.store_challenges`, sql/0014): one
/// statement that stores a period's choice unless one is stored, under the user's row lock, and answers what is
/// stored. Whoever chose first, every connection and instance gets the same challenges back.
extension PostgresStore {
    public func storeChallenges(user: UserID, _ choices: [ChallengeChoice]) async throws(StoreError) -> [StoredChallenge] {
        do {
            return try await pool.withConnection { connection in try Self.storeChallenges(choices, of: user, on: connection) }
        } catch {
            throw StoreError(error)
        }
    }

    /// `laurel.store_challenges` on `connection`: the periods of `choices` stored unless they have challenges, and
    /// what those periods have now. A transaction that holds the user's lock calls it too.
    static func storeChallenges(_ choices: [ChallengeChoice], of user: UserID, on connection: PostgresConnection) throws -> [StoredChallenge] {
        let rows = choices.map { JSONValue.object(challengeRow($0)) }
        return try connection.query(
            """
            SELECT period, slot, kind, title, target, xp, activity_id, hour, to_char(period_start, 'YYYY-MM-DD') AS start,
                   \(PostgresTimestamp.column("completed_at", as: "completed_us"))
              FROM laurel.store_challenges($1::bigint, $2::jsonb)
            """,
            [.int(Int(user.rawValue)), .text(JSONValue.array(rows).serialized())]
        ).map { row in
            guard let period = ChallengePeriod(rawValue: try row.string("period")) else {
                throw StoreError.failed("a stored challenge has an unknown period")
            }
            return try PostgresUserRecords.challenge(row, period: period)
        }
    }

    /// A chosen challenge as laurel.store_challenges and laurel.store_logs take it (sql/0014, 0015).
    static func challengeRow(_ choice: ChallengeChoice, completedAt: Date? = nil) -> JSONObject {
        var row: JSONObject = [
            "period": .string(choice.period.rawValue), "period_start": .string(choice.periodStart.description),
            "slot": .int(choice.slot), "kind": .string(choice.kind.rawValue), "title": .string(choice.title),
            "target": .int(choice.target), "xp": .int(choice.xp),
        ]
        if let activity = choice.activity { row["activity_id"] = .string(activity) }
        if let hour = choice.hour { row["hour"] = .int(hour) }
        if let completedAt { row["completed_us"] = .int(PostgresTimestamp.microseconds(completedAt)) }
        return row
    }
}
