import Foundation

/// An achievement template of the user (TEMPLATE): its rule and tiers, and the achievements it generated.
public struct Template: Decodable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// The activity's id; nil for a `combo` template, which names its activities in `combo`.
    public var activity: String?
    public var combo: [ComboPart]?
    public var type: TemplateType
    public var tiers: [TemplateTier]
    public var active: Bool
    /// Why the template stopped counting (`activity_deleted`, ...), when it did by itself.
    public var inactiveReason: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// One achievement a tier, as the user sees them.
    public var achievements: [Achievement]

    enum CodingKeys: String, CodingKey {
        case id, name, activity, combo, type, tiers, active, achievements
        case inactiveReason = "inactive_reason"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// The rule a template measures with (rules.md, "Achievement templates"). A type this library does not name yet
/// still decodes, as its raw value.
public struct TemplateType: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public static let volume: TemplateType = "volume"
    public static let daily: TemplateType = "daily"
    public static let weekly: TemplateType = "weekly"
    public static let streak: TemplateType = "streak"
    public static let speed: TemplateType = "speed"
    public static let progressive: TemplateType = "progressive"
    public static let monthly: TemplateType = "monthly"
    public static let combo: TemplateType = "combo"
}

/// One tier of a template (TIER): the achievement a target unlocks.
public struct TemplateTier: Codable, Sendable, Equatable {
    /// `bronze`, `silver`, ... unique within the template.
    public var tier: String
    public var target: Int
    /// The generated achievement's name.
    public var label: String?
    public var icon: String?
    /// The time window of a `speed` tier.
    public var windowMinutes: Int?

    enum CodingKeys: String, CodingKey {
        case tier, target, label, icon
        case windowMinutes = "window_minutes"
    }

    public init(tier: String, target: Int, label: String? = nil, icon: String? = nil, windowMinutes: Int? = nil) {
        self.tier = tier
        self.target = target
        self.label = label
        self.icon = icon
        self.windowMinutes = windowMinutes
    }
}

/// One activity of a `combo` template and the amount a day must reach of it.
public struct ComboPart: Codable, Sendable, Equatable {
    /// The activity: its id or name in a request, its id in a TEMPLATE, its name in a LISTING or a document.
    public var activity: String
    public var amount: Int

    public init(activity: String, amount: Int) {
        self.activity = activity
        self.amount = amount
    }
}

/// A ready-made type and tiers of the catalog (PRESETS), for TEMPLATE.CREATE's `preset`.
public struct Preset: Decodable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var type: TemplateType
    public var tiers: [TemplateTier]
    public var description: String
}

/// TEMPLATE.DELETE's answer: the template's id and how many achievements went with it.
public struct DeletedTemplate: Decodable, Sendable, Equatable {
    public var id: String
    public var removedAchievements: Int

    enum CodingKeys: String, CodingKey {
        case id
        case removedAchievements = "removed_achievements"
    }
}

/// The portable document of TEMPLATE.EXPORT and TEMPLATE.IMPORT, `{"laurel_templates": 1, "templates": [...]}`.
/// Its activities travel by name, so it can move to another account.
public struct TemplateDocument: Codable, Sendable, Equatable {
    /// The format's version, 1.
    public var laurelTemplates: Int
    public var templates: [PortableTemplate]

    enum CodingKeys: String, CodingKey {
        case templates
        case laurelTemplates = "laurel_templates"
    }

    public init(laurelTemplates: Int = 1, templates: [PortableTemplate]) {
        self.laurelTemplates = laurelTemplates
        self.templates = templates
    }
}

/// A template in a ``TemplateDocument``.
public struct PortableTemplate: Codable, Sendable, Equatable {
    public var name: String
    /// The activity's name (a built-in's id); absent for a `combo`.
    public var activity: String?
    public var combo: [ComboPart]?
    public var type: TemplateType
    public var tiers: [TemplateTier]
    /// True when absent.
    public var active: Bool?

    public init(name: String, activity: String? = nil, combo: [ComboPart]? = nil, type: TemplateType, tiers: [TemplateTier], active: Bool? = nil) {
        self.name = name
        self.activity = activity
        self.combo = combo
        self.type = type
        self.tiers = tiers
        self.active = active
    }
}

/// TEMPLATE.IMPORT's answer: the templates made, and the document's entries that were not, with the reason.
public struct ImportedTemplates: Decodable, Sendable, Equatable {
    public var created: [Template]
    public var skipped: [Skipped]

    /// An entry of the document that was not imported.
    public struct Skipped: Decodable, Sendable, Equatable {
        public var name: String
        public var reason: String
    }
}
