import LaurelProtocol
import LaurelStore

/// Where premium is required: changing templates. Checked inside the request's transaction, against the
/// database clock, so an expiry takes effect at once. Free and lapsed users get a `premium_required` a client
/// can turn into a paywall (with whether a trial is still to be had).
enum PremiumGate {
    static let templatesFeature = "templates"

    static func requireTemplates(_ records: any UserRecords) throws {
        let subscription = try records.subscription()
        guard subscription.isPremium else {
            throw ProtocolError.premiumRequired(
                feature: templatesFeature, trialAvailable: !subscription.trialUsed,
                message: subscription.status == .lapsed
                    ? "your premium has ended: templates keep counting but cannot be changed"
                    : "achievement templates are a premium feature")
        }
    }
}
