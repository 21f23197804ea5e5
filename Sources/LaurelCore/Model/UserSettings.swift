/// A user's settings as in force from some day on. Rest day, vacation and the weekly goal have history (rules.md): a
/// day is judged by the settings in force on that day, so changes never rewrite the past.
public struct UserSettings: Sendable, Equatable {
    /// Active days a week the weekly goal asks for when the user never set it.
    public static let defaultWeeklyGoal = 3
    /// The goals a user may set.
    public static let weeklyGoals = 1...7
    /// Minutes after a reminder in which a log answers it, when the user never set it.
    public static let defaultReminderWindow = 30
    /// The reminder windows a user may set, in minutes.
    public static let reminderWindows = 5...240

    /// An IANA time zone name.
    public var timeZone: String
    /// The weekly rest day, if any.
    public var restDay: Weekday?
    public var vacation: Bool
    /// Active days (rest days count) a week the weekly goal streak asks for.
    public var weeklyGoal: Int
    /// Minutes after a reminder in which a log answers it.
    public var reminderWindowMinutes: Int
    /// Whether the user is listed on global leaderboards (friends' boards list friends either way).
    public var leaderboards: Bool

    public init(
        timeZone: String, restDay: Weekday? = nil, vacation: Bool = false, weeklyGoal: Int = UserSettings.defaultWeeklyGoal,
        reminderWindowMinutes: Int = UserSettings.defaultReminderWindow, leaderboards: Bool = true
    ) {
        self.timeZone = timeZone
        self.restDay = restDay
        self.vacation = vacation
        self.weeklyGoal = weeklyGoal
        self.reminderWindowMinutes = reminderWindowMinutes
        self.leaderboards = leaderboards
    }
}
