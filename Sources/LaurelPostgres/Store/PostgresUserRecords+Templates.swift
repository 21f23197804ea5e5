import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

extension PostgresUserRecords {
    private static let templateColumns = """
        id::text AS id, name, activity_id, type, tiers::text AS tiers, active, inactive_reason,
        \(PostgresTimestamp.column("created_at", as: "created_us")), \(PostgresTimestamp.column("updated_at", as: "updated_us"))
        """

    func templates() throws -> [AchievementTemplate] {
        try connection.query(
            "SELECT \(Self.templateColumns) FROM laurel.templates WHERE user_id = $1::bigint ORDER BY created_at, id", [userParameter]
        ).map(Self.template)
    }

    func template(id: String) throws -> AchievementTemplate? {
        // Not a UUID: no such template (and no error from the cast).
        guard UUID(uuidString: id) != nil else { return nil }
        return try connection.query(
            "SELECT \(Self.templateColumns) FROM laurel.templates WHERE user_id = $1::bigint AND id = $2::uuid", [userParameter, .text(id)]
        ).first.map(Self.template)
    }

    func insertTemplate(name: String, activityID: String, type: TemplateType, tiers: [TemplateTier]) throws -> AchievementTemplate {
        try Self.template(connection.query(
            """
            INSERT INTO laurel.templates (user_id, activity_id, name, type, tiers) VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::json)
            RETURNING \(Self.templateColumns)
            """, [userParameter, .text(activityID), .text(name), .text(type.rawValue), .text(Self.json(tiers))]
        ).first.require())
    }

    func updateTemplate(_ template: AchievementTemplate) throws -> AchievementTemplate {
        try Self.template(connection.query(
            """
            UPDATE laurel.templates SET name = $3::text, tiers = $4::json, active = $5::boolean, inactive_reason = $6::text, updated_at = now()
             WHERE user_id = $1::bigint AND id = $2::uuid RETURNING \(Self.templateColumns)
            """,
            [userParameter, .text(template.id), .text(template.name), .text(Self.json(template.tiers)), .bool(template.active),
             PostgresValue(template.inactiveReason)]
        ).first.require())
    }

    func deleteTemplate(id: String) throws {
        try connection.execute("DELETE FROM laurel.templates WHERE user_id = $1::bigint AND id = $2::uuid", [userParameter, .text(id)])
    }

    func setTemplatesActive(_ active: Bool, activityID: String, reason: String) throws -> Int {
        if active {
            return try connection.execute(
                """
                UPDATE laurel.templates SET active = true, inactive_reason = NULL, updated_at = now()
                 WHERE user_id = $1::bigint AND activity_id = $2::text AND NOT active AND inactive_reason = $3::text
                """, [userParameter, .text(activityID), .text(reason)])
        }
        return try connection.execute(
            """
            UPDATE laurel.templates SET active = false, inactive_reason = $3::text, updated_at = now()
             WHERE user_id = $1::bigint AND activity_id = $2::text AND active
            """, [userParameter, .text(activityID), .text(reason)])
    }

    func accountDocument() throws -> JSONValue {
        try JSONParser.parse(try connection.query("SELECT laurel.account_document($1::bigint)::text AS doc", [userParameter]).first.require().string("doc"))
    }

    func deleteAccount() throws {
        try connection.execute("DELETE FROM laurel.users WHERE id = $1::bigint", [userParameter])
        try connection.execute("SELECT laurel.announce('user_deleted', $1::bigint)", [userParameter])
    }

    func deleteUnlocks(withPrefix prefix: String) throws -> Int {
        try connection.execute(
            "DELETE FROM laurel.unlocks WHERE user_id = $1::bigint AND starts_with(achievement_id, $2::text)", [userParameter, .text(prefix)])
    }

    /// Tiers as stored: the protocol's TIER objects.
    static func json(_ tiers: [TemplateTier]) -> String {
        JSONValue.array(tiers.map { .object($0.json) }).serialized()
    }

    private static func tiers(_ text: String) throws -> [TemplateTier] {
        guard case .array(let list) = try JSONParser.parse(text) else { throw StoreError.failed("stored tiers are not a list") }
        return try list.map { value in
            guard let tier = value.objectValue.flatMap(TemplateTier.init(json:)) else {
                throw StoreError.failed("a stored tier lacks its name or target")
            }
            return tier
        }
    }

    private static func template(_ row: PostgresRow) throws -> AchievementTemplate {
        guard let type = TemplateType(rawValue: try row.string("type")) else { throw StoreError.failed("stored template has an unknown type") }
        return AchievementTemplate(
            id: try row.string("id"), name: try row.string("name"), activityID: try row.string("activity_id"), type: type,
            tiers: try tiers(try row.string("tiers")), active: try row.bool("active"), inactiveReason: row["inactive_reason"],
            createdAt: PostgresTimestamp.date(microseconds: try row.int("created_us")),
            updatedAt: PostgresTimestamp.date(microseconds: try row.int("updated_us")))
    }
}
