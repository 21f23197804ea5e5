import Foundation

/// A user's subscription as the store last read it (rules.md, "Subscriptions and entitlements"): what the status
/// was then and when the running premium period ends, so that an expiry takes effect at once without a write.
public struct SubscriptionState: Sendable, Equatable {
    public enum Status: String, Sendable {
        case free, trial, active, lapsed
    }

    public var status: Status
    /// When the running trial or grant ends; nil without end or without premium.
    public var endsAt: Date?
    public var trialUsed: Bool

    public init(status: Status, endsAt: Date?, trialUsed: Bool) {
        self.status = status
        self.endsAt = endsAt
        self.trialUsed = trialUsed
    }

    /// The status at `now`: a premium period that has ended since it was read is lapsed.
    public func status(at now: Date) -> Status {
        guard status == .trial || status == .active else { return status }
        if let endsAt, endsAt <= now { return .lapsed }
        return status
    }

    public func isPremium(at now: Date) -> Bool {
        let status = status(at: now)
        return status == .trial || status == .active
    }

    public func tier(at now: Date) -> String { isPremium(at: now) ? "premium" : "free" }
}
