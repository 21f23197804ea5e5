import LaurelCore
import LaurelJSON

/// `ACHIEVEMENTS {"category"?, "activity"?, "status"?, "source"?, "include_hidden"?}`: filtered achievements.
public struct AchievementsRequest: RequestArguments, Hashable {
    /// Only this category, trimmed, 1 to 64 characters.
    public var category: String?
    /// Only achievements of this activity (id or name), trimmed, 1 to 128 characters.
    public var activity: String?
    public var status: AchievementStatus?
    public var source: AchievementSource?
    /// Whether hidden achievements are listed; `false` when not given.
    public var includeHidden: Bool

    public init(
        category: String? = nil, activity: String? = nil, status: AchievementStatus? = nil,
        source: AchievementSource? = nil, includeHidden: Bool = false
    ) {
        self.category = category
        self.activity = activity
        self.status = status
        self.source = source
        self.includeHidden = includeHidden
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(
            argument, fields: ["category", "activity", "status", "source", "include_hidden"])
        category = try fields.string("category", .name)
        activity = try fields.string("activity", .activityReference)
        status = try fields.choice("status", AchievementStatus.self)
        source = try fields.choice("source", AchievementSource.self)
        includeHidden = try fields.bool("include_hidden") ?? false
    }
}

/// `ACHIEVEMENT {"id", "explain"?}`: one achievement by id, with why it is not unlocked yet when `explain` is true.
public struct AchievementRequest: RequestArguments, Hashable {
    /// The achievement's id, 1 to 128 characters, taken exactly as sent.
    public var id: String
    public var explain: Bool

    public init(id: String, explain: Bool = false) {
        self.id = id
        self.explain = explain
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["id", "explain"])
        id = try fields.required(fields.string("id", .identifier), "id")
        explain = try fields.bool("explain") ?? false
    }
}

/// `SETTINGS {"time_zone"?, "rest_day"?, "vacation"?, "weekly_goal"?, "reminder_window_minutes"?,
/// "leaderboards"?}`: read the settings,
/// changing the fields given.
public struct SettingsRequest: RequestArguments, Hashable {
    /// A new IANA time zone, 1 to 64 characters; whether the zone exists is checked later.
    public var timeZone: String?
    /// `keep` when absent, `set(nil)` for JSON `null` (no rest day), otherwise the new rest day.
    public var restDay: SettingChange<Weekday>
    /// Turn vacation mode on or off.
    public var vacation: Bool?
    /// Active days a week the weekly goal asks for, 1 to 7.
    public var weeklyGoal: Int?
    /// Minutes after a reminder in which a log answers it, 5 to 240.
    public var reminderWindowMinutes: Int?
    /// Be listed on global leaderboards or not.
    public var leaderboards: Bool?

    public init(
        timeZone: String? = nil, restDay: SettingChange<Weekday> = .keep, vacation: Bool? = nil, weeklyGoal: Int? = nil,
        reminderWindowMinutes: Int? = nil, leaderboards: Bool? = nil
    ) {
        self.timeZone = timeZone
        self.restDay = restDay
        self.vacation = vacation
        self.weeklyGoal = weeklyGoal
        self.reminderWindowMinutes = reminderWindowMinutes
        self.leaderboards = leaderboards
    }

    /// Whether the request changes nothing and only reads the settings.
    public var isReadOnly: Bool {
        timeZone == nil && restDay == .keep && vacation == nil && weeklyGoal == nil && reminderWindowMinutes == nil
            && leaderboards == nil
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["time_zone", "rest_day", "vacation", "weekly_goal", "reminder_window_minutes",
                                                          "leaderboards"])
        timeZone = try fields.string("time_zone", .timeZone)
        restDay = try fields.nullableWeekday("rest_day")
        vacation = try fields.bool("vacation")
        weeklyGoal = try fields.integer("weekly_goal", in: UserSettings.weeklyGoals)
        reminderWindowMinutes = try fields.integer("reminder_window_minutes", in: UserSettings.reminderWindows)
        leaderboards = try fields.bool("leaderboards")
    }
}

/// `CHALLENGES {"day"?}`: the challenges of the user's current local day and ISO week, or those stored for a past
/// day (in the last 30 days) and its week.
public struct ChallengesRequest: RequestArguments, Hashable {
    /// How far back a past day's challenges can be read.
    public static let pastDays = 30
    /// A `YYYY-MM-DD` local day; nil for today.
    public var day: LocalDay?

    public init(day: LocalDay? = nil) {
        self.day = day
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["day"])
        day = try fields.date("day")
    }
}
