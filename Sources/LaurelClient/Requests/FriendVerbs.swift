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

// Boards.
extension Verb {
    /// `LEADERBOARD`: a page of a board (`xp`, `logs`, `activity` with `activity`, `challenges`) over a `day`, `week`,
    /// `month` or `all`, global or among friends.
    public struct Leaderboard: LaurelRequest {
        public static let verb = "LEADERBOARD"
        public typealias Answer = LeaderboardPage
        public var board: String
        public var activity: String?
        public var period: String?
        public var key: String?
        public var scope: String?
        public var limit: Int?
        public var after: String?
        public var aroundMe: Bool?
        enum CodingKeys: String, CodingKey {
            case board, activity, period, key, scope, limit, after
            case aroundMe = "around_me"
        }
        public init(
            board: String, activity: String? = nil, period: String? = nil, key: String? = nil, scope: String? = nil, limit: Int? = nil,
            after: String? = nil, aroundMe: Bool? = nil
        ) {
            self.board = board
            self.activity = activity
            self.period = period
            self.key = key
            self.scope = scope
            self.limit = limit
            self.after = after
            self.aroundMe = aroundMe
        }
    }
}
