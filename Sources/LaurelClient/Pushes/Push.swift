import Foundation
import LaurelJSON

/// A push the server sent to every connection of the user (protocol.md, "Pushes"). Stored pushes carry `seq`; a
/// ``LaurelClient`` delivers each of them once, in `seq` order, across reconnects.
public struct Push: Sendable, Equatable {
    /// `UNLOCK`, `LEVEL`, `STREAK`, `CHALLENGE`, `GOAL`, `FRIEND`, `SUBSCRIPTION`, ...
    public var kind: String
    public var seq: Int?
    /// The push's object as sent.
    public var object: JSONValue

    /// What the push says, typed for the kinds an app shows.
    public var content: Content {
        let decoder = WireCoding.decoder()
        let data = Data(object.serialized().utf8)
        switch kind {
        case "UNLOCK": return (try? decoder.decode(Achievement.self, from: data)).map(Content.unlock) ?? .other
        case "LEVEL": return (try? decoder.decode(LevelReached.self, from: data)).map(Content.level) ?? .other
        case "STREAK": return (try? decoder.decode(StreakChange.self, from: data)).map(Content.streak) ?? .other
        case "CHALLENGE": return (try? decoder.decode(Challenge.self, from: data)).map(Content.challenge) ?? .other
        case "GOAL": return (try? decoder.decode(GoalMet.self, from: data)).map(Content.goal) ?? .other
        case "FRIEND": return (try? decoder.decode(Friend.self, from: data)).map(Content.friend) ?? .other
        default: return .other
        }
    }

    /// The typed content of a push.
    public enum Content: Sendable, Equatable {
        case unlock(Achievement)
        case level(LevelReached)
        case streak(StreakChange)
        case challenge(Challenge)
        case goal(GoalMet)
        /// A friendship began: the other user.
        case friend(Friend)
        /// A kind without a typed form here: read `object`.
        case other
    }

    /// `LEVEL`: the level went up.
    public struct LevelReached: Decodable, Sendable, Equatable {
        public var level: Int
        public var xp: Int
    }

    /// `STREAK`: `extended`, `freeze_earned`, `freeze_used` or `broken`.
    public struct StreakChange: Decodable, Sendable, Equatable {
        public var event: String
        public var streak: Streak
    }

    /// `GOAL`: the week met the weekly goal.
    public struct GoalMet: Decodable, Sendable, Equatable {
        public var week: String
        public var weeklyStreak: WeeklyStreak
        enum CodingKeys: String, CodingKey {
            case week
            case weeklyStreak = "weekly_streak"
        }
    }
}
