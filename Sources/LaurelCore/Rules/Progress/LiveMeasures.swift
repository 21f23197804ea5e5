/// The measures of a user's running state read where ``ProgressAccumulator`` keeps them, with the figures that depend
/// on the moment and on the standings given alongside: what each decision evaluates the achievements against.
/// ``ProgressAccumulator/measures`` takes the same figures out into a ``ProgressMeasures`` of their own.
public struct LiveMeasures: RuleMeasures {
    // The figures and the tables the rules read, not the running state itself: each decision makes one, and a copy
    // of the whole state retained every table in it (the days, the walks, the reminders) for rules that read a few.
    public let totalLogs: Int
    public let completedLessons: Int
    public let longestStreak: Int
    public let perfectWeeks: Int
    public let dayVariety: Int
    public let busiestDay: Int
    public let earliestLocalHour: Int?
    public let latestLocalHour: Int?
    public let baseXP: Int
    private let activities: [String: ActivityTally]
    private let speeds: [SpeedWindow: Int]
    private let combos: [[ComboPart]: Set<LocalDay>]
    private let lessonsByCategory: [String: Int]
    private let eventCounts: [String: Int]
    public let longestWeeklyStreak: Int
    public let longestReminderStreak: Int
    let topPercentMet: Set<TopPercentGoal>

    /// - Parameters:
    ///   - accumulator: the running state.
    ///   - longestWeeklyStreak: the weekly goal streak's longest now (``ProgressAccumulator/weeklyGoalStreak(today:settings:)``).
    ///   - longestReminderStreak: the reminder streak's longest now (``ProgressAccumulator/reminderStreak(now:settings:)``).
    ///   - topPercentMet: the comparative goals the ended weeks' standings meet.
    public init(accumulator: ProgressAccumulator, longestWeeklyStreak: Int, longestReminderStreak: Int, topPercentMet: Set<TopPercentGoal>) {
        totalLogs = accumulator.totalLogs
        completedLessons = accumulator.completedLessons.count
        longestStreak = accumulator.streak.longest
        perfectWeeks = accumulator.perfectWeeks
        dayVariety = accumulator.dayVariety
        busiestDay = accumulator.busiestDay
        earliestLocalHour = accumulator.earliestLocalHour
        latestLocalHour = accumulator.latestLocalHour
        baseXP = accumulator.baseXP
        activities = accumulator.activities
        speeds = accumulator.speeds
        combos = accumulator.combos
        lessonsByCategory = accumulator.lessonsByCategory
        eventCounts = accumulator.events
        self.longestWeeklyStreak = longestWeeklyStreak
        self.longestReminderStreak = longestReminderStreak
        self.topPercentMet = topPercentMet
    }

    public func activity(_ id: String) -> ActivityMeasures? {
        // A user logs a handful of activities, and the rules ask for a few each decision: comparing names is cheaper
        // than hashing one for a look-up (small names compare as two machine words).
        if activities.count <= Self.activitiesScanned {
            for (name, tally) in activities where name == id { return tally.measures }
            return nil
        }
        return activities[id]?.measures
    }

    public func speed(_ window: SpeedWindow) -> Int { speeds[window] ?? 0 }
    public func comboDays(_ parts: [ComboPart]) -> Int { combos[parts]?.count ?? 0 }
    public func lessons(in category: String) -> Int { lessonsByCategory[category] ?? 0 }
    public func events(named name: String) -> Int { eventCounts[name] ?? 0 }
    public func meets(_ goal: TopPercentGoal) -> Bool { !topPercentMet.isEmpty && topPercentMet.contains(goal) }

    /// Up to how many activities a look-up scans them rather than hashing the name.
    private static let activitiesScanned = 8
}
