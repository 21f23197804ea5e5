import Foundation

/// A compact per-user running state from which every measure, the streak and every day's figures follow, updated
/// with one new fact at a time without reading the history. The server keeps it in the user's session and stores
/// it now and then as a snapshot (``writeSnapshot(into:)``).
///
/// The measures that depend on today (the weekly goal streak's) come with `weeklyGoalStreak(today:settings:)`.
///
/// What it can take incrementally: new logs (backfilled ones too, on any day), new lesson completions and new
/// events. What needs `init(rebuildingFrom:settings:speedWindows:)` (a full recomputation) instead: deleting a
/// log, and a settings change effective before the last active day (see `acceptsSettingsChange`); a newly
/// required speed window needs only `track(_:logs:)`.
///
/// The state grows with the number of active days and (activity, day) pairs, not with the number of logs.
public struct ProgressAccumulator: Hashable, Sendable {
    public internal(set) var totalLogs = 0
    /// Sorted ascending.
    public internal(set) var activeDays: [LocalDay] = []
    public internal(set) var speedWindows: Set<SpeedWindow> = []
    var activities: [String: ActivityTally] = [:]
    var days = DayTable<DayTally>()
    var activeDaysByWeek: [ISOWeek: Int] = [:]
    var perfectWeeks = 0
    var busiestDay = 0
    var dayVariety = 0
    var earliestLocalHour: Int?
    var latestLocalHour: Int?
    /// Lesson id to category.
    var completedLessons: [String: String] = [:]
    var lessonsByCategory: [String: Int] = [:]
    var events: [String: Int] = [:]
    var speeds: [SpeedWindow: Int] = [:]
    /// For each tracked combo, the days every part's activity reached its amount.
    var combos: [[ComboPart]: Set<LocalDay>] = [:]
    var streak = StreakWalker(usesFreezes: true)
    var weeklyGoal = WeeklyGoalWalker()
    /// The user's reminders and the reminder streak walk (reminders are facts of their own: no active day, no XP).
    public internal(set) var reminders = ReminderTally()

    /// An empty state tracking these speed windows.
    public init(speedWindows: Set<SpeedWindow> = []) {
        self.speedWindows = speedWindows
        for window in speedWindows { speeds[window] = 0 }
    }

    /// The state for all `facts`, fed one by one: the reference every incremental update must agree with, and
    /// what a deletion or a settings change reaching into walked days falls back to.
    /// - Parameters:
    ///   - facts: live logs, lesson completions and events.
    ///   - settings: the rest-day and vacation history.
    ///   - speedWindows: the windows to track.
    public init(rebuildingFrom facts: ProgressFacts, settings: StreakSettingsHistory, speedWindows: Set<SpeedWindow>) {
        self.init()
        add(ProgressFacts(logs: facts.logs, lessons: facts.lessons, events: facts.events), settings: settings)
        // Judged again from the logs alone: what a reminder's stored flag says may have been undone by a deletion.
        reminders = ReminderTally(reminders: facts.reminders, logs: facts.logs, settings: settings)
        let logsByActivity = Dictionary(grouping: facts.logs, by: \.activity)
        for window in speedWindows { track(window, logs: logsByActivity[window.activity] ?? []) }
    }

    /// Adds facts stored after the ones this state counts (a snapshot brought up to date, a session catching up with
    /// writes elsewhere). Speed windows are not measured here: a window whose activity got logs is to be measured
    /// again from all its logs (`track(_:logs:)`).
    public mutating func add(_ facts: ProgressFacts, settings: StreakSettingsHistory) {
        for lesson in facts.lessons { record(lesson, settings: settings) }
        for event in facts.events { record(event) }
        // Before the logs, which answer them as they are counted (a reminder stored after a log says so itself).
        for reminder in facts.reminders { record(reminder, settings: settings) }
        // In day order, so that the streak is walked forward instead of again from the start for each backfill.
        for log in facts.logs.sorted(by: { ($0.day, $0.at) < ($1.day, $1.at) }) {
            record(log, neighbours: [], settings: settings)
        }
        reminders.settle(settings: settings)
    }

    /// Adds one new live log.
    /// - Parameters:
    ///   - log: the new log; its id must not have been recorded before.
    ///   - neighbours: for each tracked speed window of the log's activity, the live logs of that activity
    ///     whose `at` lies at most that many minutes before or after `log.at` (the server loads them with
    ///     the largest such window). Pass `[]` when the activity has no tracked window. The log itself may
    ///     be included.
    ///   - settings: the rest-day and vacation history.
    public mutating func record(_ log: LoggedFact, neighbours: [LoggedFact], settings: StreakSettingsHistory) {
        totalLogs += 1
        earliestLocalHour = min(earliestLocalHour ?? log.localHour, log.localHour)
        latestLocalHour = max(latestLocalHour ?? log.localHour, log.localHour)

        // Mutated where they are kept: a copy taken out and put back would copy the activity's per-day figures.
        let cutoffs = tableCutoffs
        let firstOfActivityThatDay = activities[log.activity, default: ActivityTally()].add(log, settings: settings, cutoffs: cutoffs)
        let dayTally = days.update(log.day, cutoffs: cutoffs, initial: DayTally()) { $0.add(log, firstOfActivity: firstOfActivityThatDay) }
        busiestDay = max(busiestDay, dayTally.logs)
        dayVariety = max(dayVariety, dayTally.activities)

        markActive(log.day, settings: settings)
        reminders.answer(byLogAt: log.at, settings: settings)

        for (parts, _) in combos where parts.contains(where: { $0.activityID == log.activity }) {
            if Self.isComboDay(log.day, parts: parts, activities: activities) { combos[parts]?.insert(log.day) }
        }

        for window in speedWindows where window.activity == log.activity {
            speeds[window] = max(speeds[window] ?? 0, window.bestContaining(log, neighbours: neighbours))
        }
    }

    /// Adds one lesson completion. A lesson counts once, but completing it again on a new day is practice: that
    /// day is active like any day with a completion.
    public mutating func record(_ lesson: LessonCompletion, settings: StreakSettingsHistory) {
        if completedLessons[lesson.lesson] == nil {
            completedLessons[lesson.lesson] = lesson.category
            lessonsByCategory[lesson.category, default: 0] += 1
        }
        days.update(lesson.day, cutoffs: tableCutoffs, initial: DayTally()) { $0.lessons += 1 }
        markActive(lesson.day, settings: settings)
    }

    /// Adds one reminder, answered or not as it was when stored.
    public mutating func record(_ reminder: ReminderFact, settings: StreakSettingsHistory) {
        reminders.record(reminder, settings: settings)
    }

    /// Walks the reminders again after a vacation change (which can skip reminders already walked).
    public mutating func walkRemindersAgain(settings: StreakSettingsHistory) {
        reminders.walkAgain(settings: settings)
    }

    /// Adds one reported event.
    public mutating func record(_ event: ReportedEvent) {
        events[event.name, default: 0] += 1
    }

    /// Starts tracking a speed window (a template gained a `speed` tier), or measures it again from scratch.
    /// - Parameters:
    ///   - window: the window.
    ///   - logs: every live log of the window's activity.
    public mutating func track(_ window: SpeedWindow, logs: [LoggedFact]) {
        speedWindows.insert(window)
        speeds[window] = window.best(in: logs)
    }

    /// Tracks a combo from the days already counted (a combo template gained or reactivated).
    public mutating func track(combo parts: [ComboPart]) {
        guard combos[parts] == nil, let first = parts.first else { return }
        combos[parts] = Set((activities[first.activityID]?.daily.days).map { days in days.filter { Self.isComboDay($0, parts: parts, activities: activities) } } ?? [])
    }

    /// Stops tracking a combo no achievement needs any more.
    public mutating func untrack(combo parts: [ComboPart]) {
        combos[parts] = nil
    }

    /// The combos tracked.
    public var trackedCombos: Set<[ComboPart]> { Set(combos.keys) }

    private static func isComboDay(_ day: LocalDay, parts: [ComboPart], activities: [String: ActivityTally]) -> Bool {
        parts.allSatisfy { (activities[$0.activityID]?.daily[day]?.amount ?? 0) >= $0.amount }
    }

    /// Stops tracking a speed window no achievement needs any more.
    public mutating func untrack(_ window: SpeedWindow) {
        speedWindows.remove(window)
        speeds[window] = nil
    }

    /// Whether a settings change effective from `day` can be applied to this state as is. Days up to the
    /// last active day have been walked with the settings then in force, so a change reaching before it
    /// needs a rebuild.
    public func acceptsSettingsChange(effective day: LocalDay) -> Bool {
        streak.lastActiveDay.map { day >= $0 } ?? true
    }

    /// The daily streak today.
    /// - Parameters:
    ///   - today: the user's local date now.
    ///   - settings: the rest-day and vacation history.
    public func streak(today: LocalDay, settings: StreakSettingsHistory) -> StreakState {
        var ignored: [StreakEvent] = []
        return streak.state(today: today, settings: settings, events: &ignored)
    }

    /// The weekly goal streak today.
    /// - Parameters:
    ///   - today: the user's local date now.
    ///   - settings: the rest-day, vacation and weekly-goal history.
    public func weeklyGoalStreak(today: LocalDay, settings: StreakSettingsHistory) -> WeeklyGoalStreak {
        weeklyGoal.state(today: today, activeDays: activeDays, settings: settings)
    }

    /// The last local day through which the daily streak keeps its length without new activity (nil: for good);
    /// see `StreakWalker.holdsThrough(settings:)`. Stored with the figures so that SQL can tell today's streak.
    public func streakHoldsThrough(settings: StreakSettingsHistory) -> LocalDay? {
        streak.holdsThrough(settings: settings)
    }

    /// Every measure at `now` (`today` its local day): `measures` and the streaks' that depend on the moment (the
    /// weekly goal streak's and the reminder streak's).
    public func measures(today: LocalDay, now: Date, settings: StreakSettingsHistory) -> ProgressMeasures {
        var measures = measures
        measures.longestWeeklyStreak = weeklyGoalStreak(today: today, settings: settings).longest
        measures.longestReminderStreak = reminders.streak(now: now, settings: settings).longest
        return measures
    }

    /// The reminder streak at `now`.
    public func reminderStreak(now: Date, settings: StreakSettingsHistory) -> ReminderStreak {
        reminders.streak(now: now, settings: settings)
    }

    /// Every measure that follows from the facts alone (all but the weekly goal and reminder streaks', left 0).
    public var measures: ProgressMeasures {
        var measures = ProgressMeasures()
        measures.totalLogs = totalLogs
        measures.activeDays = activeDays.count
        measures.completedLessons = completedLessons.count
        measures.longestStreak = streak.longest
        measures.perfectWeeks = perfectWeeks
        measures.dayVariety = dayVariety
        measures.busiestDay = busiestDay
        measures.earliestLocalHour = earliestLocalHour
        measures.latestLocalHour = latestLocalHour
        measures.activities = activities.mapValues(\.measures)
        measures.speeds = speeds
        measures.comboDays = combos.mapValues(\.count)
        measures.lessonsByCategory = lessonsByCategory
        measures.events = events
        return measures
    }

    /// Distinct lessons completed: each is worth XP once (``ExperienceFormula``).
    public var distinctLessons: Int { completedLessons.count }

    /// XP earned from facts alone (logs, lessons, active days), without building every measure.
    public var baseXP: Int {
        ExperienceFormula.xp(
            liveLogs: totalLogs, completedLessons: completedLessons.count, activeDays: activeDays.count,
            unlockedAchievements: 0, challengeXP: 0)
    }

    /// How many days before the last active day the per-day figures stay apart from the settled ones
    /// (``DayTable``): more than the backfill window (30 days by default), so that a backfill changes no settled day.
    static let changingDays = 40

    /// Where the per-day tables' parts begin (``SettledTable``): the settled days before ``changingDays`` before the
    /// last active day, the latest from the last active day on.
    var tableCutoffs: TableCutoffs<LocalDay> {
        TableCutoffs(settledBefore: activeDays.last?.adding(days: -Self.changingDays), latestFrom: activeDays.last)
    }

    /// Moves every per-day table's days to the parts `cutoffs` put them in (the last active day moved on).
    private mutating func settleDays(at cutoffs: TableCutoffs<LocalDay>) {
        days.settle(at: cutoffs)
        for id in activities.keys {
            activities[id]?.daily.settle(at: cutoffs)
            activities[id]?.weeklyAmounts.settle(at: cutoffs.weeks)
        }
    }

    private mutating func markActive(_ day: LocalDay, settings: StreakSettingsHistory) {
        let index = activeDays.insertionIndex(of: day)
        guard index == activeDays.count || activeDays[index] != day else { return }
        activeDays.insert(day, at: index)
        if index == activeDays.count - 1 { settleDays(at: tableCutoffs) }

        let week = day.isoWeek
        activeDaysByWeek[week, default: 0] += 1
        if activeDaysByWeek[week] == 7 { perfectWeeks += 1 }

        if streak.lastActiveDay.map({ day > $0 }) ?? true {
            var ignored: [StreakEvent] = []
            streak.recordActive(day, settings: settings, events: &ignored)
        } else {
            streak = StreakCalculator.walk(activeDays: activeDays, settings: settings, today: day).walker
        }
        weeklyGoal.recordActive(day, activeDays: activeDays, settings: settings)
    }
}

/// Running figures of one activity inside `ProgressAccumulator`.
struct ActivityTally: Hashable, Sendable {
    var total = 0
    var logs = 0
    var bestDay = 0
    var bestWeek = 0
    /// The activity's live logs and their summed amount, per local day.
    var daily = DayTable<ActivityDay>()
    var weeklyAmounts = WeekTable<Int>()
    /// By `LocalDay.monthNumber`.
    var monthlyAmounts: [Int: Int] = [:]
    var streak = StreakWalker(usesFreezes: false)

    /// Adds a log; returns whether it is the activity's first log on its day.
    /// - Parameter cutoffs: where the per-day tables' parts begin (``SettledTable``).
    mutating func add(_ log: LoggedFact, settings: StreakSettingsHistory, cutoffs: TableCutoffs<LocalDay>) -> Bool {
        total += log.amount
        logs += 1
        let isFirstThatDay = daily[log.day] == nil
        let dayAmount = daily.update(log.day, cutoffs: cutoffs, initial: ActivityDay()) { $0.add(log.amount) }
        bestDay = max(bestDay, dayAmount)
        let weekAmount = weeklyAmounts.update(log.day.isoWeek, cutoffs: cutoffs.weeks, initial: 0) { amount in
            amount += log.amount
            return amount
        }
        bestWeek = max(bestWeek, weekAmount)
        monthlyAmounts[log.day.monthNumber, default: 0] += log.amount

        guard isFirstThatDay else { return false }
        if streak.lastActiveDay.map({ log.day > $0 }) ?? true {
            var ignored: [StreakEvent] = []
            streak.recordActive(log.day, settings: settings, events: &ignored)
        } else {
            streak = StreakCalculator.activityWalker(days: daily.days, settings: settings)
        }
        return true
    }

    var measures: ActivityMeasures {
        ActivityMeasures(total: total, logs: logs, bestDay: bestDay, bestWeek: bestWeek, longestStreak: streak.longest, months: monthlyAmounts)
    }
}

/// One activity's live logs on one local day.
struct ActivityDay: Hashable, Sendable {
    var amount = 0
    var logs = 0

    /// Adds a log of `amount`; returns the day's amount after it.
    mutating func add(_ amount: Int) -> Int {
        self.amount += amount
        logs += 1
        return self.amount
    }
}

/// Running figures of one local day inside `ProgressAccumulator`: what the day's challenges count.
struct DayTally: Hashable, Sendable {
    var logs = 0
    var amount = 0
    /// Distinct activities logged that day.
    var activities = 0
    /// The earliest local hour of the day's logs.
    var earliestLocalHour: Int?
    /// Lesson completions, repeats included (practice makes a day active).
    var lessons = 0

    /// Adds a log; returns the day's figures after it.
    mutating func add(_ log: LoggedFact, firstOfActivity: Bool) -> DayTally {
        logs += 1
        amount += log.amount
        if firstOfActivity { activities += 1 }
        earliestLocalHour = min(earliestLocalHour ?? log.localHour, log.localHour)
        return self
    }
}

extension Array where Element: Comparable {
    /// Where `element` is or would go in this ascending array: the index of the first element not before it.
    func insertionIndex(of element: Element) -> Int {
        if let last, last < element { return count }
        return firstIndex(sortedBy: { $0 }, notBefore: element)
    }
}

extension Array {
    /// The index of the first element whose `key` is not before `bound`, in an array ascending by `key` (binary search).
    func firstIndex<Key: Comparable>(sortedBy key: (Element) -> Key, notBefore bound: Key) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if key(self[middle]) < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
