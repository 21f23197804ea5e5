/// The rules of rules.md a template's tiers must follow. Requests check the shape of each tier and the list as
/// they are read; the checks that need the template's type, and the whole set for tiers that come from elsewhere
/// (a catalog's presets), live here.
public enum TemplateTierRules {
    /// How many tiers a template has.
    public static let count = 1...10
    public static let target = 1...1_000_000_000
    public static let windowMinutes = 1...1440
    /// The length of a tier's name, label and icon.
    public static let textLength = 1...64

    /// The checks that need the type: `window_minutes` is required for `speed` tiers and refused for the others.
    /// Returns the offending field (`tiers[2].window_minutes`) and why, or nil when the tiers fit the type.
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

    /// Every rule at once, for tiers no request has read: 1 to 10 tiers, names, labels and icons of 1 to 64
    /// characters, targets 1 to 10^9 strictly increasing, names unique (case-insensitively), windows 1 to 1440
    /// minutes and fitting the type. Returns the offending field (`tiers[1].target`) and why, or nil.
    public static func listProblem(type: TemplateType, tiers: [TemplateTier]) -> (field: String, message: String)? {
        guard count.contains(tiers.count) else { return ("tiers", "must hold 1 to 10 tiers") }
        var names: Set<String> = []
        for (index, tier) in tiers.enumerated() {
            let field = "tiers[\(index)]"
            if !textLength.contains(tier.tier.unicodeScalars.count) { return ("\(field).tier", "must be a name of 1 to 64 characters") }
            if let label = tier.label, !textLength.contains(label.unicodeScalars.count) {
                return ("\(field).label", "must be a name of 1 to 64 characters")
            }
            if let icon = tier.icon, !textLength.contains(icon.unicodeScalars.count) {
                return ("\(field).icon", "must be an icon of 1 to 64 characters")
            }
            if !target.contains(tier.target) { return ("\(field).target", "must be an integer from 1 to 1000000000") }
            if let window = tier.windowMinutes, !windowMinutes.contains(window) {
                return ("\(field).window_minutes", "must be an integer from 1 to 1440")
            }
            if index > 0, tier.target <= tiers[index - 1].target {
                return ("\(field).target", "must be greater than the tier before it")
            }
            if !names.insert(tier.tier.lowercased()).inserted { return ("\(field).tier", "repeats an earlier tier name") }
        }
        return problem(type: type, tiers: tiers)
    }
}
