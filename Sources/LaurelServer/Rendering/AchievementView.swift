import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol

/// An achievement as a user sees it (`ACHIEVEMENT` in the protocol): its definition with the user's progress,
/// unlock date and whether it is hidden. A secret achievement stays hidden, nameless and undescribed until it is
/// unlocked.
struct AchievementView: Sendable {
    let entry: UserAchievements.Entry
    let progress: Int
    let unlockedAt: Date?

    init(entry: UserAchievements.Entry, measures: some RuleMeasures, level: Int, unlockedAt: Date?) {
        self.entry = entry
        self.progress = entry.definition.displayedProgress(for: measures.measure(of: entry.definition.rule, level: level))
        self.unlockedAt = unlockedAt
    }

    /// Every achievement listed for the user, with the progress `progress` holds at `now`.
    static func all(of progress: UserProgress, at now: Date) -> [AchievementView] {
        let measures = progress.liveMeasures(at: now)
        return progress.achievements.entries.map { entry in
            AchievementView(
                entry: entry, measures: measures, level: progress.figures.highestLevel, unlockedAt: progress.unlocks[entry.definition.id])
        }
    }

    /// One achievement of the user's, by id, with the progress at `now` (or from `measures` when given).
    static func one(_ id: String, of progress: UserProgress, at now: Date, measures: LiveMeasures? = nil) -> AchievementView? {
        progress.achievements.entry(id: id).map { entry in
            AchievementView(
                entry: entry, measures: measures ?? progress.liveMeasures(at: now), level: progress.figures.highestLevel,
                unlockedAt: progress.unlocks[id])
        }
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

    /// How far along, 0 to 1.
    var completion: Double { Double(progress) / Double(max(1, definition.target)) }

    /// The ACHIEVEMENT object, with `explain` when an explanation is given. `rarity` is the built-in achievements'
    /// (a template's is `null`).
    func write(into json: inout JSONWriter, rarity: RarityTable?, explanation: AchievementExplanation? = nil) {
        let concealed = definition.isSecret && !isUnlocked
        json.beginObject()
        json.field("id", definition.id)
        json.field("name", concealed ? "???" : definition.name)
        if !concealed { json.field("description", definition.description) }
        json.field("icon", definition.icon)
        json.field("category", definition.category)
        json.field("tier", definition.tier.rawValue)
        json.field("source", source)
        json.field("template_id", ifPresent: entry.template?.id)
        json.field("activity", ifPresent: activity)
        json.field("target", definition.target)
        json.field("progress", progress)
        json.field("unit", entry.unit)
        json.field("unlocked_at", timestampIfPresent: unlockedAt)
        json.field("hidden", isHidden)
        json.key("rarity")
        if entry.template == nil, let rarity { json.double(rarity.rarity(of: definition.id)) } else { json.null() }
        if let explanation {
            json.key("explain")
            ExplanationRendering.write(explanation, into: &json)
        }
        json.endObject()
    }
}

enum ExplanationRendering {
    /// `{"rule", "measure", "target", "remaining", "text", "deadline", "blocked"?}`.
    static func write(_ explanation: AchievementExplanation, into json: inout JSONWriter) {
        json.beginObject()
        json.field("rule", explanation.rule)
        json.field("measure", explanation.measure)
        json.field("target", explanation.target)
        json.field("remaining", explanation.remaining)
        json.field("text", explanation.text)
        json.key("deadline")
        if let deadline = explanation.deadline { json.timestamp(deadline) } else { json.null() }
        json.field("blocked", ifPresent: explanation.blocked?.rawValue)
        json.endObject()
    }
}

enum StreakRendering {
    /// `{"current", "longest", "freezes", "at_risk", "last_active_day"?}`.
    static func write(_ streak: StreakState, into json: inout JSONWriter) {
        json.beginObject()
        json.field("current", streak.current)
        json.field("longest", streak.longest)
        json.field("freezes", streak.freezes)
        json.field("at_risk", streak.atRisk)
        json.field("last_active_day", ifPresent: streak.lastActiveDay)
        json.endObject()
    }

    /// `RSTREAK = {"current", "longest", "pending"}`.
    static func write(_ streak: ReminderStreak, into json: inout JSONWriter) {
        json.beginObject()
        json.field("current", streak.current)
        json.field("longest", streak.longest)
        json.field("pending", streak.pending)
        json.endObject()
    }

    /// `WSTREAK = {"goal", "current", "longest", "this_week", "met", "at_risk"}`.
    static func write(_ streak: WeeklyGoalStreak, into json: inout JSONWriter) {
        json.beginObject()
        json.field("goal", streak.goal)
        json.field("current", streak.current)
        json.field("longest", streak.longest)
        json.field("this_week", streak.thisWeek)
        json.field("met", streak.met)
        json.field("at_risk", streak.atRisk)
        json.endObject()
    }
}
