import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// What the user planned: custom activities, templates and the challenges chosen for periods.
extension PostgresUserReader {
    func customActivities() throws -> [Activity] {
        try connection.query(
            """
            SELECT id, name, unit, icon, deleted_at IS NOT NULL AS deleted FROM laurel.custom_activities
             WHERE user_id = $1::bigint ORDER BY created_at, id
            """, [userParameter]
        ).map { row in
            guard let unit = ActivityUnit(rawValue: try row.string("unit")) else {
                throw StoreError.failed("stored activity has an unknown unit")
            }
            return Activity(id: try row.string("id"), name: try row.string("name"), unit: unit, icon: row["icon"], custom: true,
                            deleted: try row.bool("deleted"))
        }
    }

    func templates() throws -> [AchievementTemplate] {
        try connection.query(
            """
            SELECT id::text AS id, name, activity_id, type, tiers::text AS tiers, active, inactive_reason, listing_id::text AS listing_id, combo::text AS combo,
                   \(PostgresTimestamp.column("created_at", as: "created_us")), \(PostgresTimestamp.column("updated_at", as: "updated_us"))
              FROM laurel.templates WHERE user_id = $1::bigint ORDER BY created_at, id
            """, [userParameter]
        ).map { row in
            guard let type = TemplateType(rawValue: try row.string("type")) else { throw StoreError.failed("stored template has an unknown type") }
            return AchievementTemplate(
                id: try row.string("id"), name: try row.string("name"), activityID: try row.string("activity_id"), type: type,
                tiers: try Self.tiers(try row.string("tiers")), active: try row.bool("active"), inactiveReason: row["inactive_reason"],
                createdAt: PostgresTimestamp.date(microseconds: try row.int("created_us")),
                updatedAt: PostgresTimestamp.date(microseconds: try row.int("updated_us")), listingID: row["listing_id"],
                combo: try Self.combo(row["combo"]))
        }
    }

    /// A combo template's parts as stored (`[{"activity_id", "amount"}]`); none for other types.
    static func combo(_ text: String?) throws -> [ComboPart] {
        guard let text else { return [] }
        guard case .array(let list) = try JSONParser.parse(text) else { throw StoreError.failed("a stored combo is not a list") }
        return try list.map { value in
            guard let activity = value.objectValue?["activity_id"]?.stringValue, let amount = value.objectValue?["amount"]?.intValue else {
                throw StoreError.failed("a stored combo part lacks its activity or amount")
            }
            return ComboPart(activityID: activity, amount: amount)
        }
    }

    static func tiers(_ text: String) throws -> [TemplateTier] {
        guard case .array(let list) = try JSONParser.parse(text) else { throw StoreError.failed("stored tiers are not a list") }
        return try list.map { value in
            guard let tier = value.objectValue.flatMap(TemplateTier.init(json:)) else {
                throw StoreError.failed("a stored tier lacks its name or target")
            }
            return tier
        }
    }

    func completedChallenges() throws -> [(at: Date, xp: Int)] {
        try connection.query(
            """
            SELECT xp, \(PostgresTimestamp.column("completed_at", as: "completed_us"))
              FROM laurel.challenges WHERE user_id = $1::bigint AND completed_at IS NOT NULL
            """, [userParameter]
        ).map { (at: PostgresTimestamp.date(microseconds: try $0.int("completed_us")), xp: try $0.int("xp")) }
    }

    func challenges(of periods: [ChallengeBook.Period]) throws -> [ChallengeBook.Period: [StoredChallenge]] {
        var stored = Dictionary(periods.map { ($0, [StoredChallenge]()) }, uniquingKeysWith: { first, _ in first })
        guard !periods.isEmpty else { return stored }
        // Kinds are names and starts are dates: neither needs quoting in an array's text.
        let kinds = "{" + periods.map(\.kind.rawValue).joined(separator: ",") + "}"
        let starts = "{" + periods.map(\.start.description).joined(separator: ",") + "}"
        let rows = try connection.query(
            """
            SELECT c.period, to_char(c.period_start, 'YYYY-MM-DD') AS start, c.slot, c.kind, c.title, c.target, c.xp, c.activity_id,
                   c.hour, \(PostgresTimestamp.column("c.completed_at", as: "completed_us"))
              FROM unnest($2::text[], $3::date[]) AS held(period, start)
              JOIN laurel.challenges c ON c.user_id = $1::bigint AND c.period = held.period AND c.period_start = held.start
             ORDER BY c.period_start, c.period, c.slot
            """, [userParameter, .text(kinds), .text(starts)])
        for row in rows {
            guard let periodKind = ChallengePeriod(rawValue: try row.string("period")), let start = LocalDay(try row.string("start")) else {
                throw StoreError.failed("a stored challenge has an unknown period")
            }
            guard let kind = ChallengeKind(rawValue: try row.string("kind")) else { throw StoreError.failed("a stored challenge has an unknown kind") }
            let choice = ChallengeChoice(
                slot: try row.int("slot"), kind: kind, period: periodKind, periodStart: start, target: try row.int("target"),
                xp: try row.int("xp"), title: try row.string("title"), activity: row["activity_id"], hour: try row.optionalInt("hour"))
            stored[ChallengeBook.Period(periodKind, start: start), default: []].append(
                StoredChallenge(choice: choice, completedAt: try row.optionalInt("completed_us").map(PostgresTimestamp.date(microseconds:))))
        }
        return stored
    }
}

/// Where the user stood when ended weeks were ranked (comparative goals).
extension PostgresUserReader {
    func weekStandings(weeks: [ISOWeek], boards: Set<LeaderboardBoard>) throws -> [WeekStanding] {
        func list(_ texts: [String]) -> PostgresValue { .text(JSONValue.array(texts.map(JSONValue.string)).serialized()) }
        return try connection.query(
            """
            SELECT r.board, r.week, r.total, k.rank
              FROM laurel.week_rankings r
              LEFT JOIN laurel.week_ranks k ON k.user_id = $1::bigint AND k.board = r.board AND k.week = r.week
             WHERE r.board IN (SELECT json_array_elements_text($2::json)) AND r.week IN (SELECT json_array_elements_text($3::json))
            """, [userParameter, list(boards.map(\.description)), list(weeks.map(\.description))]
        ).map { row in
            guard let board = LeaderboardBoard(try row.string("board")), let week = ISOWeek(try row.string("week")) else {
                throw StoreError.failed("a week's ranking names an unknown board or week")
            }
            return WeekStanding(week: week, board: board, rank: try row.optionalInt("rank"), total: try row.int("total"))
        }
    }
}
