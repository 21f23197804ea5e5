import LaurelCore
import LaurelStore

extension PostgresUserRecords {
    private static let activityColumns = "id, name, unit, icon, deleted_at IS NOT NULL AS deleted"

    func customActivities(includeDeleted: Bool) throws -> [Activity] {
        try connection.query(
            """
            SELECT \(Self.activityColumns) FROM laurel.activities
             WHERE user_id = $1::bigint AND ($2::boolean OR deleted_at IS NULL) ORDER BY created_at, id
            """, [userParameter, .bool(includeDeleted)]
        ).map(Self.activity)
    }

    func customActivity(id: String) throws -> Activity? {
        try connection.query(
            "SELECT \(Self.activityColumns) FROM laurel.activities WHERE user_id = $1::bigint AND id = $2::text",
            [userParameter, .text(id)]
        ).first.map(Self.activity)
    }

    func customActivity(named name: String) throws -> Activity? {
        try connection.query(
            "SELECT \(Self.activityColumns) FROM laurel.activities WHERE user_id = $1::bigint AND lower(name COLLATE \"und-x-icu\") = lower($2::text COLLATE \"und-x-icu\")",
            [userParameter, .text(name)]
        ).first.map(Self.activity)
    }

    func customActivityCount() throws -> Int {
        try connection.query(
            "SELECT count(*) AS n FROM laurel.activities WHERE user_id = $1::bigint AND deleted_at IS NULL", [userParameter]
        ).first.require().int("n")
    }

    func insertCustomActivity(name: String, unit: ActivityUnit, icon: String?) throws -> Activity {
        try Self.activity(connection.query(
            """
            INSERT INTO laurel.activities (id, user_id, name, unit, icon) VALUES (gen_random_uuid()::text, $1::bigint, $2::text, $3::text, $4::text)
            RETURNING \(Self.activityColumns)
            """, [userParameter, .text(name), .text(unit.rawValue), PostgresValue(icon)]
        ).first.require())
    }

    func setCustomActivityDeleted(id: String, deleted: Bool) throws -> Activity {
        try Self.activity(connection.query(
            """
            UPDATE laurel.activities SET deleted_at = CASE WHEN $3::boolean THEN coalesce(deleted_at, now()) END
             WHERE user_id = $1::bigint AND id = $2::text RETURNING \(Self.activityColumns)
            """, [userParameter, .text(id), .bool(deleted)]
        ).first.require())
    }

    private static func activity(_ row: PostgresRow) throws -> Activity {
        guard let unit = ActivityUnit(rawValue: try row.string("unit")) else {
            throw StoreError.failed("stored activity has an unknown unit")
        }
        return Activity(id: try row.string("id"), name: try row.string("name"), unit: unit, icon: row["icon"], custom: true,
                        deleted: try row.bool("deleted"))
    }
}
