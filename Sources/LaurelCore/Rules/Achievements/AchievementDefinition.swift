/// One achievement a user can unlock: what it is called and shows, and the rule and target that unlock it.
/// Built-in catalogs and generated template tiers both produce these.
public struct AchievementDefinition: Hashable, Sendable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var description: String
    /// An emoji or a symbol name.
    public var icon: String
    public var category: String
    public var tier: AchievementTier
    public var rule: AchievementRule
    /// The measure at which the achievement unlocks; positive.
    public var target: Int
    /// A secret achievement shows `???` and no description while locked.
    public var isSecret: Bool

    public init(
        id: String, name: String, description: String = "", icon: String = "", category: String,
        tier: AchievementTier, rule: AchievementRule, target: Int, isSecret: Bool = false
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.icon = icon
        self.category = category
        self.tier = tier
        self.rule = rule
        self.target = target
        self.isSecret = isSecret
    }

    /// Whether a measure reaches the target.
    public func isMet(by measure: Int) -> Bool {
        Self.isMet(measure, target: target)
    }

    /// Whether `measure` reaches `target`: for callers that read a definition's target in place (calling a method on
    /// a definition in an array copies it).
    public static func isMet(_ measure: Int, target: Int) -> Bool {
        measure >= target
    }

    /// The progress to show: the measure capped at the target (and never below 0).
    public func displayedProgress(for measure: Int) -> Int {
        min(max(measure, 0), target)
    }
}
