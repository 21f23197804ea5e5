import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// ACTIVITIES, ACTIVITY.CREATE, ACTIVITY.DELETE and ACTIVITY.RESTORE.
enum ActivityRequests {
    static func list(_ request: ActivitiesRequest, in context: RequestContext) async throws -> RequestOutcome {
        let includeDeleted = request.includeDeleted
        let custom = try await context.read { try $0.customActivities(includeDeleted: includeDeleted) }
        return RequestOutcome(.array((context.catalog.activities + custom).map(ActivityRendering.json)))
    }

    static func create(_ request: ActivityCreateRequest, in context: RequestContext) async throws -> RequestOutcome {
        let (name, unit, icon) = (request.name, request.unit, request.icon)
        let (catalog, engine) = (context.catalog, context.engine)
        let limit = context.services.configuration.limits.customActivities
        let (activity, pushes) = try await context.transaction { records -> (Activity, [StoredPush]) in
            if catalog.builtinActivity(named: name) != nil {
                throw ProtocolError.conflict("\"\(name)\" is the name of a built-in activity")
            }
            if let existing = try records.customActivity(named: name) {
                guard existing.deleted else { throw ProtocolError.conflict("an activity named \"\(existing.name)\" exists") }
                // Re-creating a deleted activity restores it: same id, its logs intact, its templates active again.
                let restored = try restore(existing, limit: limit, in: records)
                return (restored, try engine.evaluate(.catchUp, in: records, now: Date()).pushes)
            }
            if try records.customActivityCount() >= limit {
                throw ProtocolError.tooLarge(limit: limit)
            }
            return (try records.insertCustomActivity(name: name, unit: unit, icon: icon), [])
        }
        return RequestOutcome(ActivityRendering.json(activity), pushes: pushes)
    }

    static func delete(_ request: ActivityIDRequest, in context: RequestContext) async throws -> RequestOutcome {
        try await setDeleted(request.id, deleted: true, in: context)
    }

    static func restore(_ request: ActivityIDRequest, in context: RequestContext) async throws -> RequestOutcome {
        try await setDeleted(request.id, deleted: false, in: context)
    }

    /// Deleting a custom activity deactivates its templates (their achievements hidden, streaks untouched);
    /// restoring it reactivates exactly those, and evaluates them at once.
    private static func setDeleted(_ idOrName: String, deleted: Bool, in context: RequestContext) async throws -> RequestOutcome {
        let (catalog, engine) = (context.catalog, context.engine)
        let limit = context.services.configuration.limits.customActivities
        let (activity, pushes) = try await context.transaction { records -> (Activity, [StoredPush]) in
            if catalog.builtinActivity(named: idOrName) != nil {
                throw ProtocolError.conflict("built-in activities cannot be deleted or restored")
            }
            guard let custom = try ActivityLookup.custom(idOrName, in: records) else {
                throw ProtocolError.notFound(field: "id")
            }
            guard custom.deleted != deleted else { return (custom, []) }
            if deleted {
                _ = try records.setTemplatesActive(false, activityID: custom.id, reason: AchievementTemplate.activityDeleted)
                return (try records.setCustomActivityDeleted(id: custom.id, deleted: true), [])
            }
            let restored = try restore(custom, limit: limit, in: records)
            return (restored, try engine.evaluate(.catchUp, in: records, now: Date()).pushes)
        }
        return RequestOutcome(ActivityRendering.json(activity), pushes: pushes)
    }

    /// A restored activity counts against the limit of live custom activities like a new one.
    private static func restore(_ activity: Activity, limit: Int, in records: any UserRecords) throws -> Activity {
        if try records.customActivityCount() >= limit { throw ProtocolError.tooLarge(limit: limit) }
        _ = try records.setTemplatesActive(true, activityID: activity.id, reason: AchievementTemplate.activityDeleted)
        return try records.setCustomActivityDeleted(id: activity.id, deleted: false)
    }
}

/// Finds the activity a request names, by id or by case-insensitive name.
enum ActivityLookup {
    /// A built-in or a live custom activity; deleted ones are not found.
    static func live(_ idOrName: String, catalog: Catalog, in records: any UserRecords) throws -> Activity? {
        if let builtin = catalog.builtinActivity(named: idOrName) { return builtin }
        guard let custom = try self.custom(idOrName, in: records), !custom.deleted else { return nil }
        return custom
    }

    /// A custom activity, deleted or not.
    static func custom(_ idOrName: String, in records: any UserRecords) throws -> Activity? {
        try records.customActivity(id: idOrName) ?? records.customActivity(named: idOrName)
    }
}

enum ActivityRendering {
    static func json(_ activity: Activity) -> JSONValue {
        var object: JSONObject = [
            "id": .string(activity.id), "name": .string(activity.name), "unit": .string(activity.unit.rawValue),
            "custom": .bool(activity.custom), "deleted": .bool(activity.deleted),
        ]
        if let icon = activity.icon { object["icon"] = .string(icon) }
        return .object(object)
    }
}
