/// The tiers each template type starts with, and the presets a user can pick from (rules.md).
public enum TemplateDefaults {
    public static func tiers(for type: TemplateType) -> [TemplateTier] {
        switch type {
        case .volume:
            [tier("bronze", 50, "Novice"), tier("silver", 100, "Intermediate"), tier("gold", 500, "Advanced"), tier("platinum", 1000, "Master")]
        case .daily: [tier("bronze", 20), tier("silver", 50), tier("gold", 100)]
        case .weekly: [tier("bronze", 100), tier("silver", 250), tier("gold", 500)]
        case .streak: [tier("bronze", 3), tier("silver", 7), tier("gold", 30)]
        case .speed: [tier("bronze", 50, window: 10), tier("silver", 100, window: 15)]
        }
    }

    /// A ready-made type and tiers.
    public struct Preset: Sendable, Hashable {
        public var id: String
        public var name: String
        public var type: TemplateType
        public var tiers: [TemplateTier]
        public var description: String
    }

    public static let presets: [Preset] = [
        Preset(id: "starter_volume", name: "Starter volume", type: .volume,
               tiers: [tier("bronze", 25), tier("silver", 50), tier("gold", 100), tier("platinum", 250)],
               description: "Milestones for a new exercise: 25, 50, 100 and 250 in total."),
        Preset(id: "habit_builder", name: "Habit builder", type: .streak,
               tiers: [tier("bronze", 3), tier("silver", 7), tier("gold", 14), tier("platinum", 30)],
               description: "Days in a row with the activity: 3, 7, 14 and 30."),
        Preset(id: "daily_grind", name: "Daily grind", type: .daily,
               tiers: [tier("bronze", 10), tier("silver", 25), tier("gold", 50)],
               description: "A big day: 10, 25 and 50 in one day."),
        Preset(id: "weekly_warrior", name: "Weekly warrior", type: .weekly,
               tiers: [tier("bronze", 50), tier("silver", 150), tier("gold", 300)],
               description: "A big week: 50, 150 and 300 in one week."),
    ]

    public static func preset(_ id: String) -> Preset? {
        presets.first { $0.id == id }
    }

    private static func tier(_ name: String, _ target: Int, _ label: String? = nil, window: Int? = nil) -> TemplateTier {
        TemplateTier(tier: name, target: target, label: label, windowMinutes: window)
    }
}

/// The checks on a template's tiers that need its type: `window_minutes` is required for `speed` tiers and
/// refused for the others. (The count, order and names are checked where the request is read.)
public enum TemplateTierRules {
    /// The offending field (`tiers[2].window_minutes`) and why, or nil when the tiers fit the type.
    public static func problem(type: TemplateType, tiers: [TemplateTier]) -> (field: String, message: String)? {
        for (index, tier) in tiers.enumerated() {
            let field = "tiers[\(index)].window_minutes"
            if type == .speed, tier.windowMinutes == nil {
                return (field, "speed tiers need window_minutes (1 to 1440)")
            }
            if type != .speed, tier.windowMinutes != nil {
                return (field, "only speed tiers take window_minutes")
            }
        }
        return nil
    }
}
