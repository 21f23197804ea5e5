/// The tiers each template type starts with (rules.md). The presets a user can pick from are catalog data
/// (`Catalog.presets`).
public enum TemplateDefaults {
    public static func tiers(for type: TemplateType) -> [TemplateTier] {
        switch type {
        case .volume:
            [tier("bronze", 50, "Novice"), tier("silver", 100, "Intermediate"), tier("gold", 500, "Advanced"), tier("platinum", 1000, "Master")]
        case .daily: [tier("bronze", 20), tier("silver", 50), tier("gold", 100)]
        case .weekly: [tier("bronze", 100), tier("silver", 250), tier("gold", 500)]
        case .streak: [tier("bronze", 3), tier("silver", 7), tier("gold", 30)]
        case .speed: [tier("bronze", 50, window: 10), tier("silver", 100, window: 15)]
        case .progressive: [tier("bronze", 50), tier("silver", 100), tier("gold", 500), tier("platinum", 1000)]
        case .monthly: [tier("bronze", 100), tier("silver", 500), tier("gold", 1000)]
        case .combo: [tier("bronze", 1), tier("silver", 7), tier("gold", 30)]
        }
    }

    private static func tier(_ name: String, _ target: Int, _ label: String? = nil, window: Int? = nil) -> TemplateTier {
        TemplateTier(tier: name, target: target, label: label, windowMinutes: window)
    }
}
