/// What the chooser knows of a user's history before a period: enough to pick challenges the user can do and
/// to set targets from the user's own recent level.
public struct ChallengeHistory: Sendable {
    /// One active day's figures.
    public struct Day: Sendable, Hashable {
        public var day: LocalDay
        /// Live logs of all activities.
        public var logs: Int
        /// Activity id to the summed amount of its live logs.
        public var amounts: [String: Int]
        /// Activity id to the number of its live logs, for entries that count one activity's logs.
        public var logsByActivity: [String: Int]
        public var lessons: Int

        public init(day: LocalDay, logs: Int, amounts: [String: Int], logsByActivity: [String: Int], lessons: Int) {
            self.day = day
            self.logs = logs
            self.amounts = amounts
            self.logsByActivity = logsByActivity
            self.lessons = lessons
        }
    }

    /// The user's last 14 active days before the period (a live log or a lesson completion), oldest first.
    public var activeDays: [Day]
    /// Active days in the ISO week before the period's week.
    public var activeDaysPreviousWeek: Int
    /// The daily streak at choosing time.
    public var currentStreak: Int
    /// Built-in and live custom activities, in a stable order; deleted ones are never offered.
    public var liveActivities: [Activity]
    /// Ids of the activities logged in the 14 days before the period.
    public var recentActivities: [String]

    public init(
        activeDays: [Day], activeDaysPreviousWeek: Int, currentStreak: Int, liveActivities: [Activity],
        recentActivities: [String]
    ) {
        self.activeDays = activeDays
        self.activeDaysPreviousWeek = activeDaysPreviousWeek
        self.currentStreak = currentStreak
        self.liveActivities = liveActivities
        self.recentActivities = recentActivities
    }

    /// How many active days the targets look back on.
    public static let lookBack = 14
}
