import Foundation

/// One change of a setting with history: from `effective` on (inclusive) the setting has `value`, until a
/// later change.
public struct DatedSetting<Value: Hashable & Sendable & Codable>: Hashable, Sendable, Codable {
    public var effective: LocalDay
    public var value: Value

    public init(effective: LocalDay, value: Value) {
        self.effective = effective
        self.value = value
    }
}

/// One time zone change: from `changedAt` on, the user's local days are those of `zone` (an IANA name).
public struct ZoneChange: Hashable, Sendable, Codable {
    public var changedAt: Date
    public var zone: String

    public init(changedAt: Date, zone: String) {
        self.changedAt = changedAt
        self.zone = zone
    }
}

/// The history of the settings that shape the streak walks: the weekly rest day, vacation, the weekly goal and the
/// reminder window; and of the time zone, by the instant of each change (an unlock's or a completed challenge's
/// local day on the boards is the one of the zone in force at that instant). A day is judged by the settings in force
/// on that day, so a change never rewrites earlier days.
/// Before the first change there is no rest day, no vacation and the default goal and window; when several changes
/// share a day the last one wins.
public struct StreakSettingsHistory: Hashable, Sendable, Codable {
    public private(set) var restDayChanges: [DatedSetting<Weekday?>]
    public private(set) var vacationChanges: [DatedSetting<Bool>]
    public private(set) var weeklyGoalChanges: [DatedSetting<Int>] = []
    public private(set) var reminderWindowChanges: [DatedSetting<Int>] = []
    public private(set) var zoneChanges: [ZoneChange] = []

    /// - Parameters:
    ///   - restDayChanges: rest-day changes in the order they were made (sorted here by day, stably).
    ///   - vacationChanges: vacation changes in the order they were made (sorted here by day, stably).
    public init(restDayChanges: [DatedSetting<Weekday?>] = [], vacationChanges: [DatedSetting<Bool>] = []) {
        self.restDayChanges = StreakSettingsHistory.stablySorted(restDayChanges)
        self.vacationChanges = StreakSettingsHistory.stablySorted(vacationChanges)
    }

    /// Records a rest-day change effective from `day` (normally today).
    public mutating func setRestDay(_ weekday: Weekday?, from day: LocalDay) {
        StreakSettingsHistory.insert(DatedSetting(effective: day, value: weekday), into: &restDayChanges)
    }

    /// Records turning vacation on or off from `day` (normally today).
    public mutating func setVacation(_ on: Bool, from day: LocalDay) {
        StreakSettingsHistory.insert(DatedSetting(effective: day, value: on), into: &vacationChanges)
    }

    /// Records a weekly goal (active days a week) in force from `day` (normally today).
    public mutating func setWeeklyGoal(_ goal: Int, from day: LocalDay) {
        StreakSettingsHistory.insert(DatedSetting(effective: day, value: goal), into: &weeklyGoalChanges)
    }

    /// The weekly goal in force on `day`.
    public func weeklyGoal(on day: LocalDay) -> Int {
        StreakSettingsHistory.value(on: day, in: weeklyGoalChanges) ?? UserSettings.defaultWeeklyGoal
    }

    /// Records a reminder window (minutes) in force from `day` (normally today).
    public mutating func setReminderWindow(_ minutes: Int, from day: LocalDay) {
        StreakSettingsHistory.insert(DatedSetting(effective: day, value: minutes), into: &reminderWindowChanges)
    }

    /// The reminder window in force on `day`, in minutes.
    public func reminderWindow(on day: LocalDay) -> Int {
        StreakSettingsHistory.value(on: day, in: reminderWindowChanges) ?? UserSettings.defaultReminderWindow
    }

    /// Records the zone in force from `instant` on.
    public mutating func setZone(_ zone: String, from instant: Date) {
        let index = zoneChanges.firstIndex { $0.changedAt > instant } ?? zoneChanges.count
        zoneChanges.insert(ZoneChange(changedAt: instant, zone: zone), at: index)
    }

    /// The local day of `instant` in the zone in force then: the latest change strictly before it, else the first
    /// zone the user had (`fallback` when no zone was ever recorded). Strictly: a change never moves an instant that
    /// was already decided, even one decided at the same millisecond, so a day once given stays the day.
    public func localDay(of instant: Date, fallback: TimeZone) -> LocalDay {
        let change = zoneChanges.last { $0.changedAt < instant } ?? zoneChanges.first
        return LocalDay(of: instant, in: change.flatMap { TimeZone(identifier: $0.zone) } ?? fallback)
    }

    /// The rest day in force on `day`.
    public func restDay(on day: LocalDay) -> Weekday? {
        StreakSettingsHistory.value(on: day, in: restDayChanges) ?? nil
    }

    public func isRestDay(_ day: LocalDay) -> Bool {
        restDay(on: day) == day.weekday
    }

    public func isVacation(_ day: LocalDay) -> Bool {
        StreakSettingsHistory.value(on: day, in: vacationChanges) ?? false
    }

    /// Whether an inactive `day` keeps a streak without costing anything (a rest day or a vacation day).
    public func excuses(_ day: LocalDay) -> Bool {
        isVacation(day) || isRestDay(day)
    }

    /// The day of the latest change, if any; a change effective before days already walked needs a full
    /// recomputation of the streaks.
    public var latestChangeDay: LocalDay? {
        // Asked at every decision: compared in place, without an array of the three.
        func later(_ first: LocalDay?, _ second: LocalDay?) -> LocalDay? {
            guard let first else { return second }
            guard let second else { return first }
            return max(first, second)
        }
        return later(later(restDayChanges.last?.effective, vacationChanges.last?.effective), weeklyGoalChanges.last?.effective)
    }

    private static func value<Value>(on day: LocalDay, in changes: [DatedSetting<Value>]) -> Value? {
        // The first change effective after `day`; the one before it is in force.
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].effective <= day { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : changes[low - 1].value
    }

    private static func insert<Value>(_ change: DatedSetting<Value>, into changes: inout [DatedSetting<Value>]) {
        let index = changes.lastIndex { $0.effective <= change.effective }.map { $0 + 1 } ?? 0
        changes.insert(change, at: index)
    }

    private static func stablySorted<Value>(_ changes: [DatedSetting<Value>]) -> [DatedSetting<Value>] {
        changes.enumerated()
            .sorted { ($0.element.effective, $0.offset) < ($1.element.effective, $1.offset) }
            .map(\.element)
    }
}
