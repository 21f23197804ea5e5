import Foundation

// Achievement templates. Reading them is free; creating, changing, deleting and importing need premium (or a
// running trial), else `premium_required`.
extension Verb {
    /// `PRESETS`: the catalog's ready-made types and tiers.
    public struct Presets: LaurelRequest {
        public static let verb = "PRESETS"
        public typealias Answer = [Preset]
        public init() {}
    }

    /// `TEMPLATES`: the user's templates, of one activity when given.
    public struct Templates: LaurelRequest {
        public static let verb = "TEMPLATES"
        public typealias Answer = [Template]
        /// The activity's id or name.
        public var activity: String?
        public init(activity: String? = nil) { self.activity = activity }
    }

    /// `TEMPLATE.CREATE` of one template: for one activity, or a `combo` of several. One template for each of the
    /// user's activities (`"activity": "*"`, answered with a list) is ``CreateTemplateForEachActivity``.
    public struct CreateTemplate: LaurelRequest {
        public static let verb = "TEMPLATE.CREATE"
        public typealias Answer = Template
        /// The activity's id or name; nil for a combo.
        public var activity: String?
        /// A combo's activities and daily amounts.
        public var combo: [ComboPart]?
        /// May be left out when `preset` is given.
        public var type: TemplateType?
        /// The type's (or the preset's) default tiers when not given.
        public var tiers: [TemplateTier]?
        public var name: String?
        /// A preset's id (PRESETS), whose type and tiers to use.
        public var preset: String?

        enum CodingKeys: String, CodingKey {
            case activity, combo, type, tiers, name, preset
        }

        /// A template of one activity, with a type or a preset.
        public init(activity: String, type: TemplateType? = nil, tiers: [TemplateTier]? = nil, name: String? = nil, preset: String? = nil) {
            self.activity = activity
            self.type = type
            self.tiers = tiers
            self.name = name
            self.preset = preset
        }

        /// A `combo` template: days on which every part reached its amount.
        public init(combo: [ComboPart], tiers: [TemplateTier]? = nil, name: String? = nil) {
            self.combo = combo
            type = .combo
            self.tiers = tiers
            self.name = name
        }

        /// Refuses `"*"`, whose answer is a list: that is ``CreateTemplateForEachActivity``.
        public func encode(to encoder: any Encoder) throws {
            if activity == "*" {
                throw EncodingError.invalidValue(activity as Any, EncodingError.Context(
                    codingPath: [CodingKeys.activity], debugDescription: "\"*\" makes a list of templates: use CreateTemplateForEachActivity"))
            }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(activity, forKey: .activity)
            try container.encodeIfPresent(combo, forKey: .combo)
            try container.encodeIfPresent(type, forKey: .type)
            try container.encodeIfPresent(tiers, forKey: .tiers)
            try container.encodeIfPresent(name, forKey: .name)
            try container.encodeIfPresent(preset, forKey: .preset)
        }
    }

    /// `TEMPLATE.CREATE` with `"activity": "*"`: one template for each of the user's live activities, answered
    /// with the list of them.
    public struct CreateTemplateForEachActivity: LaurelRequest {
        public static let verb = "TEMPLATE.CREATE"
        public typealias Answer = [Template]
        /// May be left out when `preset` is given.
        public var type: TemplateType?
        public var tiers: [TemplateTier]?
        public var name: String?
        public var preset: String?

        enum CodingKeys: String, CodingKey {
            case activity, type, tiers, name, preset
        }

        public init(type: TemplateType? = nil, tiers: [TemplateTier]? = nil, name: String? = nil, preset: String? = nil) {
            self.type = type
            self.tiers = tiers
            self.name = name
            self.preset = preset
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("*", forKey: .activity)
            try container.encodeIfPresent(type, forKey: .type)
            try container.encodeIfPresent(tiers, forKey: .tiers)
            try container.encodeIfPresent(name, forKey: .name)
            try container.encodeIfPresent(preset, forKey: .preset)
        }
    }

    /// `TEMPLATE.UPDATE`: renames, re-tiers, deactivates or reactivates a template; nil fields stay as they are.
    public struct UpdateTemplate: LaurelRequest {
        public static let verb = "TEMPLATE.UPDATE"
        public typealias Answer = Template
        public var id: String
        public var name: String?
        /// Replaces the tiers.
        public var tiers: [TemplateTier]?
        public var active: Bool?

        public init(id: String, name: String? = nil, tiers: [TemplateTier]? = nil, active: Bool? = nil) {
            self.id = id
            self.name = name
            self.tiers = tiers
            self.active = active
        }
    }

    /// `TEMPLATE.DELETE`: the template and its achievements.
    public struct DeleteTemplate: LaurelRequest {
        public static let verb = "TEMPLATE.DELETE"
        public typealias Answer = DeletedTemplate
        public var id: String
        public init(id: String) { self.id = id }
    }

    /// `TEMPLATE.EXPORT`: a portable document of the user's templates (all, or those of `ids`).
    public struct ExportTemplates: LaurelRequest {
        public static let verb = "TEMPLATE.EXPORT"
        public typealias Answer = TemplateDocument
        public var ids: [String]?
        public init(ids: [String]? = nil) { self.ids = ids }
    }

    /// `TEMPLATE.IMPORT`: templates from an exported document; entries that cannot be placed are reported, not made.
    public struct ImportTemplates: LaurelRequest {
        public static let verb = "TEMPLATE.IMPORT"
        public typealias Answer = ImportedTemplates
        public var document: TemplateDocument
        public init(document: TemplateDocument) { self.document = document }
    }
}
