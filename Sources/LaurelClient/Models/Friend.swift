import Foundation

/// A friend as the user sees them (FRIEND): name, level, XP and current streak, nothing else.
public struct Friend: Codable, Sendable, Equatable {
    public var user: String
    public var userID: String
    public var since: Date
    public var level: Int
    public var xp: Int
    public var streak: Streak

    /// A friend's daily streak today: its length, and whether today still needs activity to keep it.
    public struct Streak: Codable, Sendable, Equatable {
        public var current: Int
        public var atRisk: Bool
        enum CodingKeys: String, CodingKey {
            case current
            case atRisk = "at_risk"
        }
    }

    enum CodingKeys: String, CodingKey {
        case user, since, level, xp, streak
        case userID = "user_id"
    }
}

/// An invite code to give to a friend (INVITE.CREATE).
public struct Invite: Codable, Sendable, Equatable {
    public var code: String
    public var expiresAt: Date
    enum CodingKeys: String, CodingKey {
        case code
        case expiresAt = "expires_at"
    }
}

/// INVITE.ACCEPT's answer: the new friend.
public struct AcceptedInvite: Codable, Sendable, Equatable {
    public var friend: Friend
}

/// FRIENDS' answer.
public struct FriendList: Codable, Sendable, Equatable {
    public var friends: [Friend]
}
