import LaurelCore
import LaurelJSON

/// `TEMPLATES {"activity"?}`: the user's templates.
public struct TemplatesRequest: RequestArguments, Hashable {
    /// Only templates of this activity (id or name), trimmed, 1 to 128 characters.
    public var activity: String?

    public init(activity: String? = nil) {
        self.activity = activity
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["activity"])
        activity = try fields.string("activity", .activityReference)
    }
}

/// Which activities TEMPLATE.CREATE makes templates for.
public enum TemplateActivitySelection: Sendable, Hashable {
    /// `"*"`: one template for each of the user's live activities.
    case allActivities
    /// One activity, by id or name.
    case activity(String)
    /// A combo template's activities (by id or name) and daily amounts.
    case combo([ComboDraftPart])
}

/// `TEMPLATE.CREATE {"activity", "type", "tiers"?, "name"?, "preset"?}`: create one template, or one per activity.
public struct TemplateCreateRequest: RequestArguments, Hashable {
    public var activity: TemplateActivitySelection
    /// The template type; may be left out only when `preset` is given, since a preset brings its own.
    public var type: TemplateType?
    /// The tiers; the type's (or preset's) defaults when not given.
    public var tiers: [TemplateTier]?
    /// The template's name, trimmed, 1 to 64 characters.
    public var name: String?
    /// A preset id whose type and tiers to use, trimmed, 1 to 64 characters.
    public var preset: String?

    public init(
        activity: TemplateActivitySelection, type: TemplateType?, tiers: [TemplateTier]? = nil,
        name: String? = nil, preset: String? = nil
    ) {
        self.activity = activity
        self.type = type
        self.tiers = tiers
        self.name = name
        self.preset = preset
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["activity", "type", "tiers", "name", "preset", "combo"])
        type = try fields.choice("type", TemplateType.self)
        if type == .combo {
            guard argument?["activity"] == nil else {
                throw .invalidArgument(field: "activity", message: "a combo names its activities in combo, not activity")
            }
            self.activity = .combo(try fields.combo("combo"))
        } else {
            guard argument?["combo"] == nil else { throw .invalidArgument(field: "combo", message: "combo is for templates of type combo") }
            let activity = try fields.required(fields.string("activity", .activityReference), "activity")
            self.activity = activity == "*" ? .allActivities : .activity(activity)
        }
        tiers = try fields.tiers("tiers")
        name = try fields.string("name", .name)
        preset = try fields.string("preset", .name)
        if type == nil && preset == nil {
            throw .invalidArgument(field: "type", message: "missing field type")
        }
    }
}

/// `TEMPLATE.UPDATE {"id", "name"?, "tiers"?, "active"?}`: change a template; absent fields stay as they are.
public struct TemplateUpdateRequest: RequestArguments, Hashable {
    /// The template's id, 1 to 128 characters.
    public var id: String
    /// A new name, trimmed, 1 to 64 characters.
    public var name: String?
    /// New tiers, replacing the old ones.
    public var tiers: [TemplateTier]?
    /// Activate or deactivate the template.
    public var active: Bool?

    public init(id: String, name: String? = nil, tiers: [TemplateTier]? = nil, active: Bool? = nil) {
        self.id = id
        self.name = name
        self.tiers = tiers
        self.active = active
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["id", "name", "tiers", "active"])
        id = try fields.required(fields.string("id", .identifier), "id")
        name = try fields.string("name", .name)
        tiers = try fields.tiers("tiers")
        active = try fields.bool("active")
    }
}

/// `TEMPLATE.EXPORT {"ids"?}`: a portable document of the user's templates.
public struct TemplateExportRequest: RequestArguments, Hashable {
    /// The most ids one request may list; well above the per-user template limit.
    public static let maximumIDs = 1000

    /// Only these templates (ids of 1 to 128 characters, at most ``maximumIDs``); all when not given.
    public var ids: [String]?

    public init(ids: [String]? = nil) {
        self.ids = ids
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["ids"])
        ids = try fields.strings("ids", count: 0...Self.maximumIDs, .identifier)
    }
}

/// `TEMPLATE.IMPORT {"document"}`: create templates from an exported document.
public struct TemplateImportRequest: RequestArguments, Hashable {
    /// The document as exported, `{"laurel_templates": 1, "templates": [...]}`. Only its being an object is
    /// checked here; its entries are judged one by one on import, and bad ones are reported as skipped.
    public var document: JSONObject

    public init(document: JSONObject) {
        self.document = document
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["document"])
        document = try fields.required(fields.object("document"), "document")
    }
}

/// `TEMPLATE.PUBLISH {"id", "description"?}`: publishes one of the user's templates in the marketplace.
public struct TemplatePublishRequest: RequestArguments, Hashable {
    public var id: String
    /// 0 to 280 characters, normalised like names.
    public var description: String

    public init(id: String, description: String = "") {
        self.id = id
        self.description = description
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["id", "description"])
        id = try fields.required(fields.string("id", .identifier), "id")
        if case .string(let text)? = argument?["description"], text.allSatisfy(\.isWhitespace) {
            description = ""
        } else {
            description = try fields.string("description", .listingDescription) ?? ""
        }
    }
}

/// `TEMPLATE.UNPUBLISH {"listing_id"}`.
public struct ListingRequest: RequestArguments, Hashable {
    public var listingID: String

    public init(listingID: String) {
        self.listingID = listingID
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["listing_id"])
        listingID = try fields.required(fields.string("listing_id", .identifier), "listing_id")
    }
}

/// `TEMPLATE.INSTALL {"listing_id", "activity"?}`.
public struct TemplateInstallRequest: RequestArguments, Hashable {
    public var listingID: String
    /// The installer's activity (id or name); without it, the one named like the listing's activity.
    public var activity: String?

    public init(listingID: String, activity: String? = nil) {
        self.listingID = listingID
        self.activity = activity
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["listing_id", "activity"])
        listingID = try fields.required(fields.string("listing_id", .identifier), "listing_id")
        activity = try fields.string("activity", .activityReference)
    }
}

/// `MARKET {"type"?, "activity"?, "sort"?, "limit"?, "after"?}`: a page of listings.
public struct MarketRequest: RequestArguments, Hashable {
    public enum Sort: String, Sendable, Hashable, CaseIterable {
        case popular, new
    }

    public var type: TemplateType?
    /// An activity name, matched case-insensitively.
    public var activity: String?
    public var sort: Sort
    /// 1 to 100.
    public var limit: Int
    public var after: String?

    public init(type: TemplateType? = nil, activity: String? = nil, sort: Sort = .popular, limit: Int = 20, after: String? = nil) {
        self.type = type
        self.activity = activity
        self.sort = sort
        self.limit = limit
        self.after = after
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["type", "activity", "sort", "limit", "after"])
        type = try fields.choice("type", TemplateType.self)
        activity = try fields.string("activity", .name)
        sort = try fields.choice("sort", Sort.self) ?? .popular
        limit = try fields.integer("limit", in: 1...100) ?? 20
        after = try fields.string("after", .identifier)
    }
}
