import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol

/// An achievement as a user sees it (`ACHIEVEMENT` in the protocol): its definition with the user's progress,
/// unlock date and whether it is hidden. A secret achievement stays hidden, nameless and undescribed until it
/// is unlocked.
struct AchievementView: Sendable {
    let entry: UserAchievements.Entry
    let progress: Int
    let unlockedAt: Date?

    init(entry: UserAchievements.Entry, measures: ProgressMeasures, level: Int, unlockedAt: Date?) {
        self.entry = entry
        self.progress = entry.definition.displayedProgress(for: measures.measure(of: entry.definition.rule, level: level))
        self.unlockedAt = unlockedAt
    }

    var definition: AchievementDefinition { entry.definition }
    var activity: String? { definition.rule.activity }
    var source: String { entry.template == nil ? "builtin" : "template" }
    var isUnlocked: Bool { unlockedAt != nil }
    /// Secret ones until unlocked, and those of inactive templates (deactivated, or their activity deleted).
    var isHidden: Bool { (definition.isSecret && !isUnlocked) || !entry.isEvaluated }

    var status: String {
        if isUnlocked { return "unlocked" }
        return progress > 0 ? "in_progress" : "locked"
    }

    var json: JSONObject {
        let concealed = definition.isSecret && !isUnlocked
        var object: JSONObject = [
            "id": .string(definition.id), "name": .string(concealed ? "???" : definition.name),
        ]
        if !concealed { object["description"] = .string(definition.description) }
        object["icon"] = .string(definition.icon)
        object["category"] = .string(definition.category)
        object["tier"] = .string(definition.tier.rawValue)
        object["source"] = .string(source)
        if let template = entry.template { object["template_id"] = .string(template.id) }
        if let activity { object["activity"] = .string(activity) }
        object["target"] = .int(definition.target)
        object["progress"] = .int(progress)
        object["unit"] = .string(entry.unit)
        if let unlockedAt { object["unlocked_at"] = .string(Timestamp.format(unlockedAt)) }
        object["hidden"] = .bool(isHidden)
        return object
    }
}

enum StreakRendering {
    static func json(_ streak: StreakState) -> JSONValue {
        .object(streak.json)
    }
}
