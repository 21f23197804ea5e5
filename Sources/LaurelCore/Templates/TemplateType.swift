/// The rule an achievement template measures progress with (see rules.md, "Achievement templates").
public enum TemplateType: String, Sendable, Hashable, CaseIterable, Codable {
    case volume, daily, weekly, streak, speed
    /// `activity_total` with open-ended tiers: after the last one, twice the previous target, and so on.
    case progressive
    /// `activity_total` within one local calendar month, a set of tiers for each month.
    case monthly
    /// `combo_days`: local days on which every listed activity reached its amount.
    case combo
}
