import Foundation

/// A template published in the marketplace (LISTING): what TEMPLATE.PUBLISH answers and MARKET lists.
public struct Listing: Decodable, Sendable, Equatable {
    public var listingID: String
    public var name: String
    public var type: TemplateType
    public var tiers: [TemplateTier]
    /// The name of the template's activity; absent for a `combo`, whose activities are in `combo` by name.
    public var activityName: String?
    public var combo: [ComboPart]?
    public var description: String
    /// The author's user name.
    public var author: String
    /// How many users installed it, each counted once.
    public var installs: Int
    public var publishedAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case name, type, tiers, combo, description, author, installs
        case listingID = "listing_id"
        case activityName = "activity_name"
        case publishedAt = "published_at"
        case updatedAt = "updated_at"
    }
}

/// A page of MARKET.
public struct MarketPage: Decodable, Sendable, Equatable {
    public var listings: [Listing]
    /// The cursor for the next page (`after`), absent on the last.
    public var next: String?
}
