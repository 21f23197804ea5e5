import Foundation

/// The daily streak (STREAK).
public struct Streak: Codable, Sendable, Equatable {
    public var current: Int
    public var longest: Int
    public var freezes: Int
    public var atRisk: Bool
    /// `YYYY-MM-DD`, the user's local date.
    public var lastActiveDay: String?

    enum CodingKeys: String, CodingKey {
        case current, longest, freezes
        case atRisk = "at_risk"
        case lastActiveDay = "last_active_day"
    }
}

/// The weekly goal streak (WSTREAK).
public struct WeeklyStreak: Codable, Sendable, Equatable {
    public var goal: Int
    public var current: Int
    public var longest: Int
    public var thisWeek: Int
    public var met: Bool
    public var atRisk: Bool

    enum CodingKeys: String, CodingKey {
        case goal, current, longest, met
        case thisWeek = "this_week"
        case atRisk = "at_risk"
    }
}

/// The reminder streak (RSTREAK).
public struct ReminderStreak: Codable, Sendable, Equatable {
    public var current: Int
    public var longest: Int
    public var pending: Int
}
