/// A user's settings as in force from some day on. Rest day, vacation and the weekly goal have history (rules.md): a
/// day is judged by the settings in force on that day, so changes never rewrite the past.
public struct UserSettings: Sendable, Equatable {
    /// Active days a week the weekly goal asks for when the user never set it.
    public static let defaultWeeklyGoal = 3
    /// The goals a user may set.
    public static let weeklyGoals = 1...7

    /// An IANA time zone name.
    public var timeZone: String
    /// The weekly rest day, if any.
    public var restDay: Weekday?
    public var vacation: Bool
    /// Active days (rest days count) a week the weekly goal streak asks for.
    public var weeklyGoal: Int

    public init(timeZone: String, restDay: Weekday? = nil, vacation: Bool = false, weeklyGoal: Int = UserSettings.defaultWeeklyGoal) {
        self.timeZone = timeZone
        self.restDay = restDay
        self.vacation = vacation
        self.weeklyGoal = weeklyGoal
    }
}
