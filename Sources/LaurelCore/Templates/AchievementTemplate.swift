import Foundation

/// A premium user's own achievement template: one activity, one type, 1 to 10 tiers, each tier generating one
/// achievement. Progress counts all the activity's logs, including those made before the template existed.
public struct AchievementTemplate: Sendable, Hashable {
    public var id: String
    public var name: String
    public var activityID: String
    public var type: TemplateType
    public var tiers: [TemplateTier]
    public var active: Bool
    /// Why an inactive template is inactive: `activity_deleted` when its custom activity was deleted (restoring
    /// the activity reactivates it), `deactivated` when the user turned it off.
    public var inactiveReason: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// The marketplace listing this template was installed from, if any.
    public var listingID: String?
    /// A combo template's activities and daily amounts (`activityID` is the first one's); empty for other types.
    public var combo: [ComboPart]

    public static let activityDeleted = "activity_deleted"
    public static let deactivated = "deactivated"

    public init(
        id: String, name: String, activityID: String, type: TemplateType, tiers: [TemplateTier], active: Bool = true,
        inactiveReason: String? = nil, createdAt: Date, updatedAt: Date, listingID: String? = nil, combo: [ComboPart] = []
    ) {
        self.listingID = listingID
        self.combo = combo
        self.id = id
        self.name = name
        self.activityID = activityID
        self.type = type
        self.tiers = tiers
        self.active = active
        self.inactiveReason = inactiveReason
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The achievements the template generates, one per tier, in tier order. A generated achievement's id names
    /// the template and what unlocks it, so editing a tier's target (or window) makes a new achievement while a tier
    /// that keeps them keeps its unlock, whatever its name, label or icon become. A `progressive` template goes on
    /// after its last tier with twice the previous target (up to 10^9): of those, the ones in `unlocked` and the next
    /// one. A `monthly` template has a set of tiers for each local calendar month: the month of `today`'s, and of
    /// earlier months the unlocked ones.
    public func achievements(activityName: String, unlocked: Set<String> = [], today: LocalDay? = nil) -> [AchievementDefinition] {
        if type == .monthly { return monthlyAchievements(activityName: activityName, unlocked: unlocked, today: today) }
        var definitions = tierAchievements(activityName: activityName)
        guard type == .progressive, var target = tiers.last?.target else { return definitions }
        while target <= TemplateTierRules.target.upperBound / 2 {
            target *= 2
            let generated = TemplateTier(tier: "platinum", target: target)
            let id = Self.achievementID(template: id, tier: generated)
            definitions.append(AchievementDefinition(
                id: id, name: "\(activityName) \(target)", description: Self.description(type: type, tier: generated, activityName: activityName),
                icon: tiers.last?.icon ?? "🏅", category: type.rawValue, tier: .platinum, rule: rule(for: generated), target: target,
                isSecret: false))
            if !unlocked.contains(id) { break }
        }
        return definitions
    }

    /// The tiers of earlier months that were unlocked (oldest first), then this month's.
    private func monthlyAchievements(activityName: String, unlocked: Set<String>, today: LocalDay?) -> [AchievementDefinition] {
        let prefix = Self.achievementIDPrefix(template: id)
        let current = today?.monthKey
        var months = Set(unlocked.compactMap { id -> String? in
            guard id.hasPrefix(prefix), let month = id.split(separator: ".").last.map(String.init), month.count == 7, month != current else { return nil }
            return month
        }).sorted().map { ($0, true) }
        if let current { months.append((current, false)) }
        return months.flatMap { month, onlyUnlocked in
            tierAchievements(activityName: activityName).enumerated().compactMap { index, definition -> AchievementDefinition? in
                let tier = tiers[index]
                var monthly = definition
                monthly.id = "\(Self.achievementID(template: id, tier: tier)).\(month)"
                guard !onlyUnlocked || unlocked.contains(monthly.id) else { return nil }
                monthly.name += " (\(Self.monthName(month)))"
                monthly.rule = .monthTotal(activity: activityID, month: month)
                return monthly
            }
        }
    }

    /// `2026-11` as `November 2026`.
    static func monthName(_ month: String) -> String {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        let parts = month.split(separator: "-")
        guard parts.count == 2, let number = Int(parts[1]), (1...12).contains(number) else { return month }
        return "\(names[number - 1]) \(parts[0])"
    }

    private func tierAchievements(activityName: String) -> [AchievementDefinition] {
        tiers.enumerated().map { index, tier in
            AchievementDefinition(
                id: Self.achievementID(template: id, tier: tier),
                name: tier.label ?? "\(activityName) \(tier.tier.prefix(1).uppercased())\(tier.tier.dropFirst())",
                description: Self.description(type: type, tier: tier, activityName: activityName),
                icon: tier.icon ?? "🏅", category: type.rawValue,
                tier: AchievementTier(rawValue: tier.tier.lowercased()) ?? Self.tierByPosition(index), rule: rule(for: tier),
                target: tier.target, isSecret: false)
        }
    }

    /// The activities the template counts: its combo's, or its one activity.
    public var activityIDs: [String] { combo.isEmpty ? [activityID] : combo.map(\.activityID) }

    /// The prefix shared by the ids of all achievements this template ever generated.
    public static func achievementIDPrefix(template: String) -> String { "tpl.\(template)." }

    /// `tpl.<template>.<target>`, with `.w<minutes>` for a speed tier. Targets are unique within a template (they
    /// strictly increase), so the tier's name is left out: renaming a tier is not a new achievement.
    /// (`sql/0012_xp_fixes.sql` moved unlocks stored under the earlier ids, which named the tier, to these.)
    public static func achievementID(template: String, tier: TemplateTier) -> String {
        var id = "\(achievementIDPrefix(template: template))\(tier.target)"
        if let window = tier.windowMinutes { id += ".w\(window)" }
        return id
    }

    /// The template an achievement id belongs to, if it is a template's (earlier ids, naming the tier, included).
    public static func templateID(ofAchievement id: String) -> String? {
        guard id.hasPrefix("tpl.") else { return nil }
        let rest = id.dropFirst(4)
        return rest.firstIndex(of: ".").map { String(rest[..<$0]) }
    }

    private func rule(for tier: TemplateTier) -> AchievementRule {
        switch type {
        case .volume, .progressive: .activityTotal(activity: activityID)
        case .monthly: .monthTotal(activity: activityID, month: "")
        case .combo: .comboDays(parts: combo)
        case .daily: .bestDay(activity: activityID)
        case .weekly: .bestWeek(activity: activityID)
        case .streak: .activityStreak(activity: activityID)
        case .speed: .speed(activity: activityID, windowMinutes: tier.windowMinutes ?? 1)
        }
    }

    private static func tierByPosition(_ index: Int) -> AchievementTier {
        AchievementTier.allCases[min(index, AchievementTier.allCases.count - 1)]
    }

    private static func description(type: TemplateType, tier: TemplateTier, activityName: String) -> String {
        switch type {
        case .volume, .progressive: "Log \(tier.target) \(activityName) in total."
        case .monthly: "Log \(tier.target) \(activityName) within one calendar month."
        case .combo: "Do the \(activityName) combo on \(tier.target) days."
        case .daily: "Log \(tier.target) \(activityName) in one day."
        case .weekly: "Log \(tier.target) \(activityName) in one week."
        case .streak: "Log \(activityName) \(tier.target) days in a row."
        case .speed: "Log \(tier.target) \(activityName) within \(tier.windowMinutes ?? 1) minutes."
        }
    }
}
