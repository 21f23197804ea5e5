import Foundation
import LaurelCore

/// A template published in the marketplace (`LISTING`): a snapshot of the author's template as it was when last
/// published, with the activity's name (installers match it to their own activity) and how many users installed it.
public struct TemplateListing: Sendable, Equatable {
    public var id: String
    public var name: String
    public var type: TemplateType
    public var tiers: [TemplateTier]
    public var activityName: String?
    /// A combo listing's activities, by name, and amounts.
    public var combo: [ComboDraftPart]
    public var description: String
    /// The author's user name.
    public var author: String
    /// Distinct users who ever installed it.
    public var installs: Int
    public var publishedAt: Date
    public var updatedAt: Date

    public init(
        id: String, name: String, type: TemplateType, tiers: [TemplateTier], activityName: String?, description: String, author: String,
        installs: Int, publishedAt: Date, updatedAt: Date, combo: [ComboDraftPart] = []
    ) {
        self.combo = combo
        self.id = id
        self.name = name
        self.type = type
        self.tiers = tiers
        self.activityName = activityName
        self.description = description
        self.author = author
        self.installs = installs
        self.publishedAt = publishedAt
        self.updatedAt = updatedAt
    }
}

/// Which listings MARKET shows: of a type, of an activity name (case-insensitively), most installed first or newest
/// first, a page at a time after a cursor.
public struct MarketQuery: Sendable, Equatable {
    public enum Order: String, Sendable, CaseIterable {
        case popular, new
    }

    public var type: TemplateType?
    public var activityName: String?
    public var order: Order
    public var limit: Int
    /// The `next` of the page before.
    public var after: String?

    public init(type: TemplateType? = nil, activityName: String? = nil, order: Order = .popular, limit: Int = 20, after: String? = nil) {
        self.type = type
        self.activityName = activityName
        self.order = order
        self.limit = limit
        self.after = after
    }
}
