import LaurelJSON

/// A ready-made template type and tiers a user can start a template from (PRESETS, TEMPLATE.CREATE's `preset`).
/// Presets are catalog data, listed in the catalog file.
public struct TemplatePreset: Sendable, Hashable {
    public var id: String
    public var name: String
    public var type: TemplateType
    public var tiers: [TemplateTier]
    public var description: String

    public init(id: String, name: String, type: TemplateType, tiers: [TemplateTier], description: String) {
        self.id = id
        self.name = name
        self.type = type
        self.tiers = tiers
        self.description = description
    }

    /// The preset as PRESETS answers it and the catalog file lists it:
    /// `{"id", "name", "type", "tiers", "description"}`.
    public var json: JSONObject {
        [
            "id": .string(id), "name": .string(name), "type": .string(type.rawValue),
            "tiers": .array(tiers.map { .object($0.json) }), "description": .string(description),
        ]
    }
}
