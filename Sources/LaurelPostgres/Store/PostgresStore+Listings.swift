import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// The marketplace's listings: shared rows, not a user's progress, so they are written by statements of their own
/// (an install is counted in the installer's commit, with the template it makes).
extension PostgresStore {
    private static let listingColumns = """
        l.id::text AS id, l.name, l.type, l.tiers::text AS tiers, l.activity_name, l.combo::text AS combo, l.description, u.name AS author,
        l.installs,
        \(PostgresTimestamp.column("l.published_at", as: "published_us")), \(PostgresTimestamp.column("l.updated_at", as: "updated_us"))
        """

    public func publish(
        _ template: AchievementTemplate, activityName: String?, combo: [ComboDraftPart], description: String, author: UserID
    ) async throws(StoreError) -> TemplateListing {
        do {
            return try await pool.transaction { connection in
                let tiers = JSONValue.array(template.tiers.map { .object($0.json) }).serialized()
                let comboText = combo.isEmpty
                    ? PostgresValue.null
                    : .text(JSONValue.array(combo.map { ["activity": .string($0.activity), "amount": .int($0.amount)] }).serialized())
                let row = try connection.query(
                    """
                    WITH saved AS (
                        INSERT INTO laurel.listings AS l (id, author_id, template_id, name, type, tiers, activity_name, description,
                                                          published_at, updated_at, combo)
                        VALUES (gen_random_uuid(), $1::bigint, $2::uuid, $3::text, $4::text, $5::json, $6::text, $7::text, now(), now(),
                                $8::json)
                        ON CONFLICT (author_id, template_id) DO UPDATE
                           SET name = EXCLUDED.name, type = EXCLUDED.type, tiers = EXCLUDED.tiers, combo = EXCLUDED.combo,
                               activity_name = EXCLUDED.activity_name, description = EXCLUDED.description, updated_at = now()
                        RETURNING *
                    )
                    SELECT \(Self.listingColumns) FROM saved l JOIN laurel.users u ON u.id = l.author_id
                    """,
                    [.int(Int(author.rawValue)), .text(template.id), .text(template.name), .text(template.type.rawValue), .text(tiers),
                     activityName.map(PostgresValue.text) ?? .null, .text(description), comboText]
                ).first.require()
                return try Self.listing(row)
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func unpublish(listing: String, author: UserID) async throws(StoreError) -> Bool {
        guard UUID(uuidString: listing) != nil else { return false }
        do {
            return try await pool.withConnection { connection in
                try connection.execute(
                    "DELETE FROM laurel.listings WHERE id = $1::uuid AND author_id = $2::bigint", [.text(listing), .int(Int(author.rawValue))]) > 0
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func listing(_ id: String) async throws(StoreError) -> TemplateListing? {
        guard UUID(uuidString: id) != nil else { return nil }
        do {
            return try await pool.withConnection { connection in
                try connection.query(
                    "SELECT \(Self.listingColumns) FROM laurel.listings l JOIN laurel.users u ON u.id = l.author_id WHERE l.id = $1::uuid",
                    [.text(id)]
                ).first.map(Self.listing)
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// Pages by keyset: the cursor is the last listing's sort key (`installs`, `published_at`, id).
    public func market(_ query: MarketQuery) async throws(StoreError) -> (listings: [TemplateListing], next: String?) {
        let cursor = query.after.flatMap(MarketCursor.init)
        do {
            return try await pool.withConnection { connection in
                let popular = query.order == .popular
                let rows = try connection.query(
                    """
                    SELECT \(Self.listingColumns)
                      FROM laurel.listings l JOIN laurel.users u ON u.id = l.author_id
                     WHERE ($1::text IS NULL OR l.type = $1::text)
                       AND ($2::text IS NULL OR lower(l.activity_name) = lower($2::text))
                       AND ($3::bigint IS NULL OR (CASE WHEN $6::boolean THEN l.installs ELSE 0 END, l.published_at, l.id)
                            < (CASE WHEN $6::boolean THEN $3::bigint ELSE 0 END, \(PostgresTimestamp.parameter(4)), $5::uuid))
                     ORDER BY CASE WHEN $6::boolean THEN l.installs ELSE 0 END DESC, l.published_at DESC, l.id DESC
                     LIMIT $7::int
                    """,
                    [query.type.map { .text($0.rawValue) } ?? .null, query.activityName.map(PostgresValue.text) ?? .null,
                     cursor.map { .int($0.installs) } ?? .null, .int(cursor?.publishedUs ?? 0), cursor.map { .text($0.id) } ?? .null,
                     .bool(popular), .int(query.limit + 1)])
                var listings = try rows.map(Self.listing)
                guard listings.count > query.limit else { return (listings, nil) }
                listings.removeLast()
                let last = listings[listings.count - 1]
                return (listings, MarketCursor(installs: popular ? last.installs : 0, publishedUs: PostgresTimestamp.microseconds(last.publishedAt), id: last.id).text)
            }
        } catch {
            throw StoreError(error)
        }
    }

    private static func listing(_ row: PostgresRow) throws -> TemplateListing {
        guard let type = TemplateType(rawValue: try row.string("type")) else { throw StoreError.failed("stored listing has an unknown type") }
        return TemplateListing(
            id: try row.string("id"), name: try row.string("name"), type: type, tiers: try PostgresUserReader.tiers(try row.string("tiers")),
            activityName: row["activity_name"], description: try row.string("description"), author: try row.string("author"),
            installs: try row.int("installs"), publishedAt: PostgresTimestamp.date(microseconds: try row.int("published_us")),
            updatedAt: PostgresTimestamp.date(microseconds: try row.int("updated_us")),
            combo: try Self.combo(row["combo"]))
    }

    private static func combo(_ text: String?) throws -> [ComboDraftPart] {
        guard let text, case .array(let list) = try JSONParser.parse(text) else { return [] }
        return list.compactMap { value in
            guard let activity = value.objectValue?["activity"]?.stringValue, let amount = value.objectValue?["amount"]?.intValue else { return nil }
            return ComboDraftPart(activity: activity, amount: amount)
        }
    }
}

/// MARKET's `next`: the last listing's sort key, `installs.published_us.id`.
struct MarketCursor {
    var installs: Int
    var publishedUs: Int
    var id: String

    init(installs: Int, publishedUs: Int, id: String) {
        (self.installs, self.publishedUs, self.id) = (installs, publishedUs, id)
    }

    init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 2)
        guard parts.count == 3, let installs = Int(parts[0]), let published = Int(parts[1]), UUID(uuidString: String(parts[2])) != nil else {
            return nil
        }
        (self.installs, self.publishedUs, self.id) = (installs, published, String(parts[2]))
    }

    var text: String { "\(installs).\(publishedUs).\(id)" }
}
