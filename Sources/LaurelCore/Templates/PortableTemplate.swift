/// A template as TEMPLATE.EXPORT writes it and TEMPLATE.IMPORT reads it: the activity is named (a built-in by
/// its id, a custom activity by its name), so the document means the same in another account.
public struct PortableTemplate: Sendable, Hashable {
    public var name: String
    public var activity: String
    public var type: TemplateType
    public var tiers: [TemplateTier]
    public var active: Bool
    /// A combo template's activities, named as `activity` is, with their amounts (`activity` is the first one).
    public var combo: [ComboDraftPart]

    public init(name: String, activity: String, type: TemplateType, tiers: [TemplateTier], active: Bool = true, combo: [ComboDraftPart] = []) {
        self.name = name
        self.activity = activity
        self.type = type
        self.tiers = tiers
        self.active = active
        self.combo = combo
    }
}
