import Foundation

// The connection, the subscription and the account as a whole.
extension Verb {
    /// `QUIT`: the server answers, then closes the connection. A started ``LaurelClient`` connects again by itself;
    /// ``LaurelClient/stop()`` is how an app closes for good.
    public struct Quit: LaurelRequest {
        public static let verb = "QUIT"
        public typealias Answer = Done
        public init() {}
    }

    /// `SUBSCRIPTION`: the user's tier and status, and what they entitle to.
    public struct Subscription: LaurelRequest {
        public static let verb = "SUBSCRIPTION"
        public typealias Answer = UserSubscription
        public init() {}
    }

    /// `TRIAL.START`: the user's one premium trial; a second time is `conflict`.
    public struct StartTrial: LaurelRequest {
        public static let verb = "TRIAL.START"
        public typealias Answer = UserSubscription
        public init() {}
    }

    /// `ACCOUNT.EXPORT`: everything stored about the user, as one JSON value.
    public struct ExportAccount: LaurelRequest {
        public static let verb = "ACCOUNT.EXPORT"
        public typealias Answer = RawJSON
        public init() {}
    }

    /// `ACCOUNT.DELETE`: removes the user and all their data once `confirm` is their name, exactly. The server then
    /// closes every connection of the user and the token stops working: a started client ends up
    /// ``LaurelClient/Status/authenticationFailed``.
    public struct DeleteAccount: LaurelRequest {
        public static let verb = "ACCOUNT.DELETE"
        public typealias Answer = Done
        public var confirm: String
        public init(confirm: String) { self.confirm = confirm }
    }
}
