/// The weekly goal streak walk of the rules, one ISO week at a time, as a small state that can be stored and resumed.
///
/// The walk runs from the week of the first active day to the current week. A week counts each of its days up to
/// today that is active or a rest day once, and is judged by the goal in force on its last day (today, for the
/// current week). A week that meets its goal extends the streak; a past week that does not breaks it, unless one of
/// its days was a vacation day (then it is kept); the current week, while not met, breaks nothing.
///
/// Weeks before the week of the last active day are *closed*: they are walked once, when a later week gets its
/// first active day, and kept here. What follows them depends on today and is walked by `state(today:...)`.
public struct WeeklyGoalWalker: Hashable, Sendable {
    public internal(set) var current = 0
    public internal(set) var longest = 0
    /// The Monday of the first week not walked yet; nil before the first active day.
    public internal(set) var openMonday: LocalDay?

    public init() {}

    /// The walker over `activeDays` (ascending): every week before the last active day's week closed.
    /// - Parameters:
    ///   - activeDays: the active days, ascending, without repeats.
    ///   - settings: the rest-day, vacation and weekly-goal history.
    public init(activeDays: [LocalDay], settings: StreakSettingsHistory) {
        guard let first = activeDays.first, let last = activeDays.last else { return }
        openMonday = first.monday
        close(weeksBefore: last.monday, activeDays: activeDays, settings: settings)
    }

    /// Counts a new active day. A day in a week already closed needs the walk again from the start (a backfill);
    /// a day in a later week closes the weeks before it.
    /// - Parameters:
    ///   - day: the newly active day.
    ///   - activeDays: every active day, `day` included, ascending.
    ///   - settings: the rest-day, vacation and weekly-goal history.
    public mutating func recordActive(_ day: LocalDay, activeDays: [LocalDay], settings: StreakSettingsHistory) {
        guard let open = openMonday, day >= open else {
            self = WeeklyGoalWalker(activeDays: activeDays, settings: settings)
            return
        }
        close(weeksBefore: day.monday, activeDays: activeDays, settings: settings)
    }

    /// The streak on `today`: the open week and every week after it up to the current one walked.
    /// - Parameters:
    ///   - today: the user's local date now.
    ///   - activeDays: every active day, ascending.
    ///   - settings: the rest-day, vacation and weekly-goal history.
    public func state(today: LocalDay, activeDays: [LocalDay], settings: StreakSettingsHistory) -> WeeklyGoalStreak {
        let thisMonday = today.monday
        // Nothing is walked before the first active day's week.
        guard let open = openMonday, let first = activeDays.first, first.monday <= thisMonday else {
            return WeeklyGoalStreak(week: today.isoWeek, goal: settings.weeklyGoal(on: today))
        }
        // Weeks closed past the current one (an active day after today, after a move west) were judged as if
        // over: walk them again as the rules say.
        guard open <= thisMonday else {
            return WeeklyGoalWalker.fromStart(activeDays: activeDays, settings: settings).state(today: today, activeDays: activeDays, settings: settings)
        }
        var walk = self
        walk.close(weeksBefore: thisMonday, activeDays: activeDays, settings: settings)
        let goal = settings.weeklyGoal(on: today)
        let counted = WeeklyGoalWalker.countedDays(from: thisMonday, through: today, activeDays: activeDays, settings: settings)
        let met = counted >= goal
        if met {
            walk.current += 1
            walk.longest = max(walk.longest, walk.current)
        }
        let todayCounts = WeeklyGoalWalker.counts(today, activeDays: activeDays, settings: settings)
        let stillPossible = thisMonday.adding(days: 6).days(since: today) + (todayCounts ? 0 : 1)
        return WeeklyGoalStreak(
            week: today.isoWeek, goal: goal, current: walk.current, longest: walk.longest, thisWeek: counted, met: met,
            atRisk: !met && stillPossible < goal - counted)
    }

    /// The walker with no week closed yet: the start of a walk from scratch.
    static func fromStart(activeDays: [LocalDay], settings: StreakSettingsHistory) -> WeeklyGoalWalker {
        var walker = WeeklyGoalWalker()
        walker.openMonday = activeDays.first?.monday
        return walker
    }

    /// Walks the whole weeks from the open one up to (not including) the week starting on `monday`.
    private mutating func close(weeksBefore monday: LocalDay, activeDays: [LocalDay], settings: StreakSettingsHistory) {
        guard var week = openMonday, week < monday else { return }
        while week < monday {
            let sunday = week.adding(days: 6)
            let counted = WeeklyGoalWalker.countedDays(from: week, through: sunday, activeDays: activeDays, settings: settings)
            if counted >= settings.weeklyGoal(on: sunday) {
                current += 1
                longest = max(longest, current)
            } else if !(0..<7).contains(where: { settings.isVacation(week.adding(days: $0)) }) {
                current = 0
            }
            week = week.adding(days: 7)
        }
        openMonday = week
    }

    /// Days from `start` through `end` that are active or a rest day.
    private static func countedDays(from start: LocalDay, through end: LocalDay, activeDays: [LocalDay], settings: StreakSettingsHistory) -> Int {
        var counted = 0
        var day = start
        var index = activeDays.insertionIndex(of: start)
        while day <= end {
            let active = index < activeDays.count && activeDays[index] == day
            if active { index += 1 }
            if active || settings.isRestDay(day) { counted += 1 }
            day = day.next
        }
        return counted
    }

    private static func counts(_ day: LocalDay, activeDays: [LocalDay], settings: StreakSettingsHistory) -> Bool {
        let index = activeDays.insertionIndex(of: day)
        return (index < activeDays.count && activeDays[index] == day) || settings.isRestDay(day)
    }
}

extension LocalDay {
    /// The Monday of this day's ISO week.
    public var monday: LocalDay { adding(days: 1 - weekday.rawValue) }
}
