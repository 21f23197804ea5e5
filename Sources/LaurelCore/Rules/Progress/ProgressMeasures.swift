/// The per-activity part of `ProgressMeasures`.
public struct ActivityMeasures: Hashable, Sendable, Codable {
    /// Sum of `amount` of live logs (`activity_total`, and PROFILE's `by_activity`).
    public var total: Int
    public var logs: Int
    public var bestDay: Int
    public var bestWeek: Int
    public var longestStreak: Int
    /// Sum of `amount` by local calendar month (`LocalDay.monthNumber`).
    public var months: [Int: Int]

    public init(total: Int = 0, logs: Int = 0, bestDay: Int = 0, bestWeek: Int = 0, longestStreak: Int = 0, months: [Int: Int] = [:]) {
        self.total = total
        self.logs = logs
        self.bestDay = bestDay
        self.bestWeek = bestWeek
        self.longestStreak = longestStreak
        self.months = months
    }
}

/// Every figure the achievement rules measure, derived from a user's facts (by `ProgressRecomputation` or
/// `ProgressAccumulator`, which must agree). Only the weekly goal streak depends on today; the `level` measure is
/// supplied at evaluation because it depends on unlocks.
public struct ProgressMeasures: Hashable, Sendable, Codable {
    public var totalLogs = 0
    public var activeDays = 0
    /// Distinct lessons completed.
    public var completedLessons = 0
    public var longestStreak = 0
    /// The longest weekly goal streak, the current week included once it is met (so it depends on today: see
    /// `UserProgress.measures(at:)`).
    public var longestWeeklyStreak = 0
    /// The longest reminder streak (it depends on the moment, like the weekly one).
    public var longestReminderStreak = 0
    public var perfectWeeks = 0
    public var dayVariety = 0
    public var busiestDay = 0
    /// The earliest and latest local hour any live log fell in.
    public var earliestLocalHour: Int?
    public var latestLocalHour: Int?
    /// Only activities with at least one live log appear.
    public var activities: [String: ActivityMeasures] = [:]
    /// Only tracked windows appear.
    public var speeds: [SpeedWindow: Int] = [:]
    /// Combo days, for tracked combos only.
    public var comboDays: [[ComboPart]: Int] = [:]
    /// Distinct lessons completed, by category.
    public var lessonsByCategory: [String: Int] = [:]
    /// Reported events, by name.
    public var events: [String: Int] = [:]
    /// The comparative goals met by the ended weeks' standings (supplied at evaluation, like the level).
    public var topPercentMet: Set<TopPercentGoal> = []

    public init() {}

    /// XP earned from facts alone: logs, lessons and active days, before achievements and challenges.
    public var baseXP: Int {
        ExperienceFormula.xp(
            liveLogs: totalLogs, completedLessons: completedLessons, activeDays: activeDays,
            unlockedAchievements: 0, challengeXP: 0
        )
    }
}

extension ProgressMeasures: RuleMeasures {
    public func activity(_ id: String) -> ActivityMeasures? { activities[id] }
    public func speed(_ window: SpeedWindow) -> Int { speeds[window] ?? 0 }
    public func comboDays(_ parts: [ComboPart]) -> Int { comboDays[parts] ?? 0 }
    public func lessons(in category: String) -> Int { lessonsByCategory[category] ?? 0 }
    public func events(named name: String) -> Int { events[name] ?? 0 }
    public func meets(_ goal: TopPercentGoal) -> Bool { topPercentMet.contains(goal) }
}
