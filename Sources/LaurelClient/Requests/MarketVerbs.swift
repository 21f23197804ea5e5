import Foundation

// The template marketplace: premium users publish and install templates, anyone browses.
extension Verb {
    /// `TEMPLATE.PUBLISH`: lists one of the user's templates; publishing it again updates the same listing.
    public struct PublishTemplate: LaurelRequest {
        public static let verb = "TEMPLATE.PUBLISH"
        public typealias Answer = Listing
        /// The template's id.
        public var id: String
        /// Up to 280 characters; empty when not given.
        public var description: String?

        public init(id: String, description: String? = nil) {
            self.id = id
            self.description = description
        }
    }

    /// `TEMPLATE.UNPUBLISH`: removes the author's listing; installed copies stay.
    public struct UnpublishTemplate: LaurelRequest {
        public static let verb = "TEMPLATE.UNPUBLISH"
        public typealias Answer = Done
        public var listingID: String

        enum CodingKeys: String, CodingKey {
            case listingID = "listing_id"
        }

        public init(listingID: String) { self.listingID = listingID }
    }

    /// `MARKET`: a page of listings, most installed first (`popular`) or newest first (`new`).
    public struct Market: LaurelRequest {
        public static let verb = "MARKET"
        public typealias Answer = MarketPage
        public var type: TemplateType?
        /// An activity name, matched case-insensitively.
        public var activity: String?
        /// `popular` when not given.
        public var sort: Sort?
        /// 1 to 100; 20 when not given.
        public var limit: Int?
        /// The previous page's `next`.
        public var after: String?

        /// The order of the listings.
        public enum Sort: String, Encodable, Sendable {
            /// Most installed first, then newest.
            case popular
            /// Newest first.
            case new
        }

        public init(type: TemplateType? = nil, activity: String? = nil, sort: Sort? = nil, limit: Int? = nil, after: String? = nil) {
            self.type = type
            self.activity = activity
            self.sort = sort
            self.limit = limit
            self.after = after
        }
    }

    /// `TEMPLATE.INSTALL`: a copy of a listing as the user's own template, on the user's activity of the listing's
    /// activity name unless `activity` names another.
    public struct InstallTemplate: LaurelRequest {
        public static let verb = "TEMPLATE.INSTALL"
        public typealias Answer = Template
        public var listingID: String
        /// The user's activity (id or name) to install it on.
        public var activity: String?

        enum CodingKeys: String, CodingKey {
            case activity
            case listingID = "listing_id"
        }

        public init(listingID: String, activity: String? = nil) {
            self.listingID = listingID
            self.activity = activity
        }
    }
}
