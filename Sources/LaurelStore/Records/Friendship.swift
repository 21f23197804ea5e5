import Foundation
import LaurelCore

/// What a user's friends see of the user (FRIENDS, the FRIEND push), as the user's last write stored it: name, level,
/// XP, and the daily streak's figures with the settings in force now, from which ``StreakGlance`` tells today's streak.
public struct FriendFigures: Sendable, Equatable {
    public var user: UserID
    public var name: String
    public var level: Int
    public var xp: Int
    public var storedStreak: Int
    public var lastActiveDay: LocalDay?
    public var streakHoldsThrough: LocalDay?
    public var timeZone: String
    public var restDay: Weekday?
    public var vacation: Bool

    public init(
        user: UserID, name: String, level: Int, xp: Int, storedStreak: Int, lastActiveDay: LocalDay?, streakHoldsThrough: LocalDay?,
        timeZone: String, restDay: Weekday?, vacation: Bool
    ) {
        self.user = user
        self.name = name
        self.level = level
        self.xp = xp
        self.storedStreak = storedStreak
        self.lastActiveDay = lastActiveDay
        self.streakHoldsThrough = streakHoldsThrough
        self.timeZone = timeZone
        self.restDay = restDay
        self.vacation = vacation
    }

    /// The daily streak as it stands at `now` in the user's zone.
    public func streak(at now: Date) -> StreakGlance {
        let today = LocalDay(of: now, in: TimeZone(identifier: timeZone) ?? .gmt)
        return StreakGlance(
            stored: storedStreak, lastActiveDay: lastActiveDay, holdsThrough: streakHoldsThrough, today: today,
            excused: vacation || restDay == today.weekday)
    }
}

/// One of a user's friends: who, since when, and what the user sees of them.
public struct Friend: Sendable, Equatable {
    public var figures: FriendFigures
    public var since: Date

    public init(figures: FriendFigures, since: Date) {
        self.figures = figures
        self.since = since
    }
}

/// What making an invite code came to.
public enum InviteCreation: Sendable, Equatable {
    case created
    /// The user has ``InviteCode/maximumOpen`` codes open already.
    case tooManyOpen
    /// Another code has that text: draw another.
    case codeTaken
}

/// What accepting an invite code came to. Nothing is stored unless it is `accepted`.
public enum InviteAcceptance: Sendable, Equatable {
    /// The friendship began: the inviter as the accepting user now sees them, and the accepting user's FRIEND push.
    case accepted(inviter: FriendFigures, push: StoredPush)
    /// No open code of that text: unknown, expired or used.
    case unknownCode
    case ownCode
    case alreadyFriends
    /// One side has the most friends the limits allow.
    case friendsLimit
}

/// An accepted invite whose inviter's `invite` event is not recorded yet.
public struct AcceptedInvite: Sendable, Equatable {
    public var code: InviteCode
    public var inviter: AuthenticatedUser
    public var acceptedAt: Date

    public init(code: InviteCode, inviter: AuthenticatedUser, acceptedAt: Date) {
        self.code = code
        self.inviter = inviter
        self.acceptedAt = acceptedAt
    }
}
