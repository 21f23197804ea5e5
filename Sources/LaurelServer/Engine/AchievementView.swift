import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol

/// An achievement as a user sees it (`ACHIEVEMENT` in the protocol): its definition with the user's progress,
/// unlock date and whether it is hidden. A secret achievement stays hidden, nameless and undescribed until it
/// is unlocked.
struct AchievementView: Sendable {
    let definition: AchievementDefinition
    let progress: Int
    let unlockedAt: Date?
    let unit: String
    let activity: String?

    init(definition: AchievementDefinition, measures: ProgressMeasures, level: Int, unlockedAt: Date?, catalog: Catalog) {
        self.definition = definition
        self.progress = definition.displayedProgress(for: measures.measure(of: definition.rule, level: level))
        self.unlockedAt = unlockedAt
        self.activity = definition.rule.activity
        self.unit = Self.unit(of: definition.rule, catalog: catalog)
    }

    var isUnlocked: Bool { unlockedAt != nil }
    var isHidden: Bool { definition.isSecret && !isUnlocked }

    var status: String {
        if isUnlocked { return "unlocked" }
        return progress > 0 ? "in_progress" : "locked"
    }

    var json: JSONObject {
        let concealed = isHidden
        var object: JSONObject = [
            "id": .string(definition.id), "name": .string(concealed ? "???" : definition.name),
        ]
        if !concealed { object["description"] = .string(definition.description) }
        object["icon"] = .string(definition.icon)
        object["category"] = .string(definition.category)
        object["tier"] = .string(definition.tier.rawValue)
        object["source"] = "builtin"
        if let activity { object["activity"] = .string(activity) }
        object["target"] = .int(definition.target)
        object["progress"] = .int(progress)
        object["unit"] = .string(unit)
        if let unlockedAt { object["unlocked_at"] = .string(Timestamp.format(unlockedAt)) }
        object["hidden"] = .bool(concealed)
        return object
    }

    /// What `target` and `progress` count.
    static func unit(of rule: AchievementRule, catalog: Catalog) -> String {
        switch rule {
        case .activityTotal(let activity), .bestDay(let activity), .bestWeek(let activity), .speed(let activity, _):
            return catalog.builtinActivity(named: activity)?.unit.rawValue ?? "reps"
        case .totalLogs, .busiestDay, .logsBefore, .logsAfter: return "logs"
        case .streak, .activityStreak: return "days"
        case .dayVariety, .distinctActivities: return "activities"
        case .perfectWeeks: return "weeks"
        case .lessons: return "lessons"
        case .events: return "events"
        case .level: return "level"
        }
    }
}

enum StreakRendering {
    static func json(_ streak: StreakState) -> JSONValue {
        var object: JSONObject = [
            "current": .int(streak.current), "longest": .int(streak.longest), "freezes": .int(streak.freezes),
            "at_risk": .bool(streak.atRisk),
        ]
        if let day = streak.lastActiveDay { object["last_active_day"] = .string(day.description) }
        return .object(object)
    }
}
