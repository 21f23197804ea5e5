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

/// One user's place on a board (ENTRY).
public struct LeaderboardEntry: Codable, Sendable, Equatable {
    public var rank: Int
    public var user: String
    public var userID: String
    public var score: Int
    public var reachedAt: Date
    enum CodingKeys: String, CodingKey {
        case rank, user, score
        case userID = "user_id"
        case reachedAt = "reached_at"
    }
}

/// LEADERBOARD's answer: a page of a board key, the asking user's entry, the board's size and the next page's cursor.
public struct LeaderboardPage: Codable, Sendable, Equatable {
    public var board: String
    public var activity: String?
    public var period: String
    public var key: String
    public var scope: String
    public var entries: [LeaderboardEntry]
    public var me: LeaderboardEntry?
    public var total: Int
    public var next: String?
}
