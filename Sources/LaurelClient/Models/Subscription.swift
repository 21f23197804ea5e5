import Foundation

/// The user's subscription and what it entitles to, as SUBSCRIPTION and TRIAL.START answer it (and the
/// `SUBSCRIPTION` push carries it).
public struct UserSubscription: Decodable, Sendable, Equatable {
    /// `free` or `premium`.
    public var tier: String
    /// `free`, `trial`, `active` or `lapsed`.
    public var status: String
    /// Whether TRIAL.START would start the user's one trial.
    public var trialAvailable: Bool
    /// When the running trial ends (status `trial`).
    public var trialEndsAt: Date?
    /// When the running grant ends (status `active`); absent for one without end.
    public var expiresAt: Date?
    public var entitlements: Entitlements

    /// What the tier allows.
    public struct Entitlements: Decodable, Sendable, Equatable {
        /// Whether the user may create, change and install templates.
        public var templates: Bool
        /// The most templates the user may have (0 without premium).
        public var templateLimit: Int?

        enum CodingKeys: String, CodingKey {
            case templates
            case templateLimit = "template_limit"
        }
    }

    enum CodingKeys: String, CodingKey {
        case tier, status, entitlements
        case trialAvailable = "trial_available"
        case trialEndsAt = "trial_ends_at"
        case expiresAt = "expires_at"
    }
}
