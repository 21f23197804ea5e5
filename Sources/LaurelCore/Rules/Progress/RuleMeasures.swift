/// The figures an achievement rule is measured on, and the one place that says which figure each rule measures
/// (``measure(of:level:)``). Two kinds of figures answer it: ``ProgressMeasures``, every figure taken out of the
/// running state or recomputed from the facts (what the agreement tests compare, what views and explanations show),
/// and ``LiveMeasures``, which reads them where the running state keeps them, for the evaluation every decision runs
/// (taking every figure out first made two tables and dropped them again, every LOG).
public protocol RuleMeasures {
    var totalLogs: Int { get }
    var completedLessons: Int { get }
    var longestStreak: Int { get }
    var longestWeeklyStreak: Int { get }
    var longestReminderStreak: Int { get }
    var perfectWeeks: Int { get }
    var dayVariety: Int { get }
    var busiestDay: Int { get }
    var earliestLocalHour: Int? { get }
    var latestLocalHour: Int? { get }
    /// XP earned from facts alone: logs, lessons and active days, before achievements and challenges.
    var baseXP: Int { get }
    /// The figures of an activity with at least one live log; nil for any other.
    func activity(_ id: String) -> ActivityMeasures?
    /// The most logs of a tracked window (0 for one not tracked).
    func speed(_ window: SpeedWindow) -> Int
    /// The days a tracked combo was met (0 for one not tracked).
    func comboDays(_ parts: [ComboPart]) -> Int
    /// Distinct lessons completed in `category`.
    func lessons(in category: String) -> Int
    /// Reported events named `name`.
    func events(named name: String) -> Int
    /// Whether the ended weeks' standings meet `goal`.
    func meets(_ goal: TopPercentGoal) -> Bool
}

extension RuleMeasures {
    /// The rule's measure. Measures are never above what the rule allows (0 or 1 for an hour rule, the set's
    /// size for `distinct_activities`); capping at the target is only for display.
    /// - Parameters:
    ///   - rule: the rule.
    ///   - level: the level reached, for the `level` rule.
    @inline(__always)
    public func measure(of rule: AchievementRule, level: Int) -> Int {
        switch rule {
        case .totalLogs: totalLogs
        case .activityTotal(let activity): self.activity(activity)?.total ?? 0
        case .streak: longestStreak
        case .weeklyStreak: longestWeeklyStreak
        case .reminderStreak: longestReminderStreak
        case .activityStreak(let activity): self.activity(activity)?.longestStreak ?? 0
        case .bestDay(let activity): self.activity(activity)?.bestDay ?? 0
        case .bestWeek(let activity): self.activity(activity)?.bestWeek ?? 0
        case .monthTotal(let activity, let month): LocalDay.monthNumber(of: month).flatMap { self.activity(activity)?.months[$0] } ?? 0
        case .comboDays(let parts): comboDays(parts)
        case .speed(let activity, let minutes): speed(SpeedWindow(activity: activity, minutes: minutes))
        case .dayVariety: dayVariety
        case .distinctActivities(let set): set.count(where: { (self.activity($0)?.logs ?? 0) > 0 })
        case .logsBefore(let hour): (earliestLocalHour.map { $0 < hour } ?? false) ? 1 : 0
        case .logsAfter(let hour): (latestLocalHour.map { $0 >= hour } ?? false) ? 1 : 0
        case .perfectWeeks: perfectWeeks
        case .busiestDay: busiestDay
        case .lessons(let category): category.map { lessons(in: $0) } ?? completedLessons
        case .events(let name): events(named: name)
        case .level: level
        case .topPercent(let goal): meets(goal) ? 1 : 0
        }
    }
}
