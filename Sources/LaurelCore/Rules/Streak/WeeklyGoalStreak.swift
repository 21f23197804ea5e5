/// The weekly goal streak as the profile shows it (`WSTREAK` in the protocol) for the user's current ISO week.
public struct WeeklyGoalStreak: Hashable, Sendable {
    /// The current week (the one `thisWeek`, `met` and `atRisk` are about).
    public var week: ISOWeek
    /// Active days (rest days count) the current week asks for: the goal in force today.
    public var goal: Int
    /// Consecutive weeks that met their goal, kept across missed weeks with a vacation day; the current week
    /// counts once it is met.
    public var current: Int
    /// The largest `current` ever reached; the measure of the `weekly_streak` rule.
    public var longest: Int
    /// Days of the current week up to today that count toward the goal.
    public var thisWeek: Int
    public var met: Bool
    /// The current week is not met and too few of its days are left to meet it.
    public var atRisk: Bool

    public init(week: ISOWeek, goal: Int, current: Int = 0, longest: Int = 0, thisWeek: Int = 0, met: Bool = false, atRisk: Bool = false) {
        self.week = week
        self.goal = goal
        self.current = current
        self.longest = longest
        self.thisWeek = thisWeek
        self.met = met
        self.atRisk = atRisk
    }
}
