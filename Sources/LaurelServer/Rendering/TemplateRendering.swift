import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol

/// TEMPLATE objects: the template with its generated achievements as the user sees them.
enum TemplateRendering {
    static func write(_ template: AchievementTemplate, views: [AchievementView], into json: inout JSONWriter) {
        json.beginObject()
        json.field("id", template.id)
        json.field("name", template.name)
        if template.combo.isEmpty {
            json.field("activity", template.activityID)
        } else {
            json.key("combo")
            json.value(.array(template.combo.map { ["activity": .string($0.activityID), "amount": .int($0.amount)] }))
        }
        json.field("type", template.type.rawValue)
        json.key("tiers")
        json.value(.array(template.tiers.map { .object($0.json) }))
        json.field("active", template.active)
        json.field("inactive_reason", ifPresent: template.inactiveReason)
        json.field("created_at", timestamp: template.createdAt)
        json.field("updated_at", timestamp: template.updatedAt)
        json.key("achievements")
        json.beginArray()
        // A template's achievements have no rarity (`null`).
        for view in views where view.entry.template?.id == template.id { view.write(into: &json, rarity: nil) }
        json.endArray()
        json.endObject()
    }

    /// The templates as TEMPLATE objects, as a list or (`single`) the only one.
    static func json(_ templates: [AchievementTemplate], of progress: UserProgress, at now: Date, single: Bool = false) -> JSONWriter {
        let views = AchievementView.all(of: progress, at: now)
        var json = JSONWriter()
        if !single { json.beginArray() }
        for template in templates { write(template, views: views, into: &json) }
        if !single { json.endArray() }
        return json
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

enum SettingsRendering {
    static func json(_ settings: UserSettings) -> JSONValue {
        [
            "time_zone": .string(settings.timeZone), "rest_day": settings.restDay.map { .string($0.name) } ?? .null,
            "vacation": .bool(settings.vacation), "weekly_goal": .int(settings.weeklyGoal),
            "reminder_window_minutes": .int(settings.reminderWindowMinutes), "leaderboards": .bool(settings.leaderboards),
        ]
    }
}
