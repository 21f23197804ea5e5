/// The rule an achievement template measures progress with (see rules.md, "Achievement templates").
public enum TemplateType: String, Sendable, Hashable, CaseIterable, Codable {
    case volume, daily, weekly, streak, speed
}
