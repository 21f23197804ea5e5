import Foundation

/// PROFILE's answer.
public struct UserProfile: Decodable, Sendable, Equatable {
    public var user: String
    public var tier: String
    public var xp: Int
    public var level: Int
    public var xpToNextLevel: Int
    public var streak: Streak
    public var weeklyStreak: WeeklyStreak
    public var reminderStreak: ReminderStreak
    public var totals: Totals
    public var unlocked: Int

    /// Logs and active days, and the amount logged of each activity by id.
    public struct Totals: Decodable, Sendable, Equatable {
        public var logs: Int
        public var activeDays: Int
        public var byActivity: [String: Int]

        enum CodingKeys: String, CodingKey {
            case logs
            case activeDays = "active_days"
            case byActivity = "by_activity"
        }
    }

    enum CodingKeys: String, CodingKey {
        case user, tier, xp, level, streak, totals, unlocked
        case xpToNextLevel = "xp_to_next_level"
        case weeklyStreak = "weekly_streak"
        case reminderStreak = "reminder_streak"
    }
}

/// The user's settings, as SETTINGS answers them.
public struct UserSettings: Decodable, Sendable, Equatable {
    public var timeZone: String
    /// `monday` … `sunday`, or nil.
    public var restDay: String?
    public var vacation: Bool
    public var weeklyGoal: Int
    public var reminderWindowMinutes: Int
    /// Listed on global leaderboards (friends' boards list friends either way).
    public var leaderboards: Bool

    enum CodingKeys: String, CodingKey {
        case vacation, leaderboards
        case timeZone = "time_zone"
        case restDay = "rest_day"
        case weeklyGoal = "weekly_goal"
        case reminderWindowMinutes = "reminder_window_minutes"
    }
}

/// A challenge of the day or the week (CHALLENGE).
public struct Challenge: Codable, Sendable, Equatable {
    public var id: String
    public var kind: String
    public var title: String
    public var target: Int
    public var progress: Int
    public var xp: Int
    /// `daily` or `weekly`.
    public var period: String
    public var periodStart: String
    public var activity: String?
    public var completedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, kind, title, target, progress, xp, period, activity
        case periodStart = "period_start"
        case completedAt = "completed_at"
    }
}

/// CHALLENGES' answer: the day's and the week's challenges.
public struct ChallengeList: Decodable, Sendable, Equatable {
    public var day: String
    public var week: String
    public var daily: [Challenge]
    public var weekly: [Challenge]
}

/// REMINDER's answer.
public struct ReminderAnswer: Decodable, Sendable, Equatable {
    public var reminder: Reminder
    public var duplicate: Bool
    public var reminderStreak: ReminderStreak

    /// A reminder the app showed: `answered`, `pending` or `missed`.
    public struct Reminder: Decodable, Sendable, Equatable {
        public var id: String
        public var at: Date
        public var state: String
        public var windowEndsAt: Date

        enum CodingKeys: String, CodingKey {
            case id, at, state
            case windowEndsAt = "window_ends_at"
        }
    }

    enum CodingKeys: String, CodingKey {
        case reminder, duplicate
        case reminderStreak = "reminder_streak"
    }
}
