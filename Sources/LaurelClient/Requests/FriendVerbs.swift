import Foundation

// Friends: invite codes, friendships.
extension Verb {
    /// `INVITE.CREATE`: a code valid for 7 days that makes whoever accepts it a friend; 20 open at most.
    public struct CreateInvite: LaurelRequest {
        public static let verb = "INVITE.CREATE"
        public typealias Answer = Invite
        public init() {}
    }

    /// `INVITE.ACCEPT`: become friends with the code's maker; both get a `FRIEND` push.
    public struct AcceptInvite: LaurelRequest {
        public static let verb = "INVITE.ACCEPT"
        public typealias Answer = AcceptedInvite
        public var code: String
        public init(code: String) { self.code = code }
    }

    /// `FRIENDS`: the user's friends.
    public struct Friends: LaurelRequest {
        public static let verb = "FRIENDS"
        public typealias Answer = FriendList
        public init() {}
    }

    /// `FRIEND.REMOVE`: ends a friendship, for both sides.
    public struct RemoveFriend: LaurelRequest {
        public static let verb = "FRIEND.REMOVE"
        public typealias Answer = Done
        public var userID: String
        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
        }
        public init(userID: String) { self.userID = userID }
    }
}
