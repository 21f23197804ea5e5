import Foundation
import LaurelCore
import LaurelJSON

/// The user's subscription and its one trial.
public protocol SubscriptionRecords {
    func subscription() throws -> SubscriptionState
    /// The SUBSCRIPTION object of protocol.md, by the database clock.
    func subscriptionDocument() throws -> JSONObject
    /// Starts the user's trial (premium for 14 days, once per user ever) and stores the SUBSCRIPTION push that
    /// tells about it, announced to every instance on commit. Nil when the trial was used before; nothing
    /// changes then.
    func startTrial() throws -> StoredPush?
}

/// A user's subscription now, by the database clock (rules.md, Subscriptions).
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

    public var isPremium: Bool { status == .trial || status == .active }
    public var tier: String { isPremium ? "premium" : "free" }
}
