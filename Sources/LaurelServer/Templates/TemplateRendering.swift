import LaurelCore
import LaurelJSON
import LaurelProtocol

/// TEMPLATE objects: the template with its generated achievements as the user sees them.
enum TemplateRendering {
    static func json(_ template: AchievementTemplate, snapshot: ProgressSnapshot) -> JSONValue {
        var object: JSONObject = [
            "id": .string(template.id), "name": .string(template.name), "activity": .string(template.activityID),
            "type": .string(template.type.rawValue), "tiers": .array(template.tiers.map { .object($0.json) }),
            "active": .bool(template.active),
        ]
        if let reason = template.inactiveReason { object["inactive_reason"] = .string(reason) }
        object["created_at"] = .string(Timestamp.format(template.createdAt))
        object["updated_at"] = .string(Timestamp.format(template.updatedAt))
        let views = AchievementRequests.views(snapshot).filter { $0.entry.template?.id == template.id }
        object["achievements"] = .array(views.map { .object($0.json) })
        return .object(object)
    }
}
