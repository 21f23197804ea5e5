/// What an achievement measures: one of the rule kinds of the rules (built-in catalogs and templates are
/// made of these). The measure itself comes from `RuleMeasures.measure(of:level:)`.
public enum AchievementRule: Hashable, Sendable, Codable {
    /// Live logs of all activities (lessons and events excluded).
    case totalLogs
    /// Sum of `amount` of the activity's live logs.
    case activityTotal(activity: String)
    /// The longest daily streak.
    case streak
    /// The longest weekly goal streak.
    case weeklyStreak
    /// The longest streak of answered reminders.
    case reminderStreak
    /// The longest streak of days on which the activity was logged (no freezes).
    case activityStreak(activity: String)
    /// The largest sum of `amount` of the activity on one local day.
    case bestDay(activity: String)
    /// The largest sum of `amount` of the activity in one ISO week.
    case bestWeek(activity: String)
    /// The sum of `amount` of the activity's live logs in one local calendar month (`YYYY-MM`): a monthly template's.
    case monthTotal(activity: String, month: String)
    /// Local days on which every part's activity reached its amount: a combo template's.
    case comboDays(parts: [ComboPart])
    /// The largest sum of `amount` of the activity's logs whose `at` all lie within `windowMinutes`.
    case speed(activity: String, windowMinutes: Int)
    /// The most distinct activities logged on one day.
    case dayVariety
    /// How many of these activities were ever logged.
    case distinctActivities(Set<String>)
    /// 1 once a log falls before this local hour (0...24), else 0.
    case logsBefore(hour: Int)
    /// 1 once a log falls at or after this local hour (0...23), else 0.
    case logsAfter(hour: Int)
    /// ISO weeks with 7 active days.
    case perfectWeeks
    /// The most logs on one day.
    case busiestDay
    /// Distinct lessons completed, of one category or (nil) of all.
    case lessons(category: String?)
    /// Reported events of this name.
    case events(name: String)
    /// The level reached.
    case level
    /// 1 once the user finished one of the latest ended weeks within the top percent of a global board, else 0.
    case topPercent(TopPercentGoal)

    /// The rule kinds as catalogs and the protocol spell them.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case totalLogs = "total_logs"
        case activityTotal = "activity_total"
        case streak
        case weeklyStreak = "weekly_streak"
        case reminderStreak = "reminder_streak"
        case activityStreak = "activity_streak"
        case bestDay = "best_day"
        case bestWeek = "best_week"
        case monthTotal = "month_total"
        case comboDays = "combo_days"
        case speed
        case dayVariety = "day_variety"
        case distinctActivities = "distinct_activities"
        case logsBefore = "logs_before"
        case logsAfter = "logs_after"
        case perfectWeeks = "perfect_weeks"
        case busiestDay = "busiest_day"
        case lessons
        case events
        case level
        case topPercent = "top_percent"
    }

    public var kind: Kind {
        switch self {
        case .totalLogs: .totalLogs
        case .activityTotal: .activityTotal
        case .streak: .streak
        case .weeklyStreak: .weeklyStreak
        case .reminderStreak: .reminderStreak
        case .activityStreak: .activityStreak
        case .bestDay: .bestDay
        case .bestWeek: .bestWeek
        case .monthTotal: .monthTotal
        case .comboDays: .comboDays
        case .speed: .speed
        case .dayVariety: .dayVariety
        case .distinctActivities: .distinctActivities
        case .logsBefore: .logsBefore
        case .logsAfter: .logsAfter
        case .perfectWeeks: .perfectWeeks
        case .busiestDay: .busiestDay
        case .lessons: .lessons
        case .events: .events
        case .level: .level
        case .topPercent: .topPercent
        }
    }

    /// The single activity the rule is about, if it is about one (for the `activity` filter of ACHIEVEMENTS).
    public var activity: String? {
        switch self {
        case .activityTotal(let activity), .activityStreak(let activity), .bestDay(let activity),
             .bestWeek(let activity), .speed(let activity, _), .monthTotal(let activity, _):
            activity
        case .topPercent(let goal):
            if case .activity(let activity) = goal.board { activity } else { nil }
        default:
            nil
        }
    }

    /// The largest value the measure can take whatever the history, if the rule bounds it.
    public var measureBound: Int? {
        switch self {
        case .logsBefore, .logsAfter, .topPercent: 1
        case .distinctActivities(let activities): activities.count
        default: nil
        }
    }
}
