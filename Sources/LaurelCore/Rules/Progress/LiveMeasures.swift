/// The measures of a user's running state read where ``ProgressAccumulator`` keeps them, with the figures that depend
/// on the moment and on the standings given alongside: what each decision evaluates the achievements against.
/// ``ProgressAccumulator/measures`` takes the same figures out into a ``ProgressMeasures`` of their own.
public struct LiveMeasures: RuleMeasures {
    let accumulator: ProgressAccumulator
    public let longestWeeklyStreak: Int
    public let longestReminderStreak: Int
    let topPercentMet: Set<TopPercentGoal>

    /// - Parameters:
    ///   - accumulator: the running state.
    ///   - longestWeeklyStreak: the weekly goal streak's longest now (``ProgressAccumulator/weeklyGoalStreak(today:settings:)``).
    ///   - longestReminderStreak: the reminder streak's longest now (``ProgressAccumulator/reminderStreak(now:settings:)``).
    ///   - topPercentMet: the comparative goals the ended weeks' standings meet.
    public init(accumulator: ProgressAccumulator, longestWeeklyStreak: Int, longestReminderStreak: Int, topPercentMet: Set<TopPercentGoal>) {
        self.accumulator = accumulator
        self.longestWeeklyStreak = longestWeeklyStreak
        self.longestReminderStreak = longestReminderStreak
        self.topPercentMet = topPercentMet
    }

    public var totalLogs: Int { accumulator.totalLogs }
    public var completedLessons: Int { accumulator.completedLessons.count }
    public var longestStreak: Int { accumulator.streak.longest }
    public var perfectWeeks: Int { accumulator.perfectWeeks }
    public var dayVariety: Int { accumulator.dayVariety }
    public var busiestDay: Int { accumulator.busiestDay }
    public var earliestLocalHour: Int? { accumulator.earliestLocalHour }
    public var latestLocalHour: Int? { accumulator.latestLocalHour }
    public var baseXP: Int { accumulator.baseXP }

    public func activity(_ id: String) -> ActivityMeasures? {
        // A user logs a handful of activities, and the rules ask for a few each decision: comparing names is cheaper
        // than hashing one for a look-up (small names compare as two machine words).
        if accumulator.activities.count <= Self.activitiesScanned {
            for (name, tally) in accumulator.activities where name == id { return tally.measures }
            return nil
        }
        return accumulator.activities[id]?.measures
    }

    public func speed(_ window: SpeedWindow) -> Int { accumulator.speeds[window] ?? 0 }
    public func comboDays(_ parts: [ComboPart]) -> Int { accumulator.combos[parts]?.count ?? 0 }
    public func lessons(in category: String) -> Int { accumulator.lessonsByCategory[category] ?? 0 }
    public func events(named name: String) -> Int { accumulator.events[name] ?? 0 }
    public func meets(_ goal: TopPercentGoal) -> Bool { !topPercentMet.isEmpty && topPercentMet.contains(goal) }

    /// Up to how many activities a look-up scans them rather than hashing the name.
    private static let activitiesScanned = 8
}
