/// The periods a board ranks over (rules.md, "Friends and leaderboards"). A fact belongs to the keys of its local day
/// in its user's zone, so every user gets a whole local day, week and month.
public enum LeaderboardPeriod: String, CaseIterable, Sendable, Hashable {
    case day, week, month, all

    /// The key of the period holding `day`: `YYYY-MM-DD`, `YYYY-Www`, `YYYY-MM` or `all`.
    public func key(of day: LocalDay) -> String {
        switch self {
        case .day: day.description
        case .week: day.isoWeek.description
        case .month: day.monthKey
        case .all: "all"
        }
    }

    /// The last local day of the period whose key is `key`; nil for `all` (it never ends) or a key of another shape.
    public func lastDay(ofKey key: String) -> LocalDay? {
        switch self {
        case .day: LocalDay(key)
        case .week: ISOWeek(key)?.days.last
        case .month: LocalDay.monthNumber(of: key).flatMap { LocalDay(year: $0 / 100, month: $0 % 100, day: 1) }?.nextMonthStart.previous
        case .all: nil
        }
    }

    /// The local days of the period whose key is `key`; nil for `all` (every day) or a key of another shape.
    public func days(ofKey key: String) -> ClosedRange<LocalDay>? {
        guard let last = lastDay(ofKey: key) else { return nil }
        switch self {
        case .day: return last...last
        case .week: return last.adding(days: -6)...last
        case .month: return LocalDay(year: last.year, month: last.month, day: 1).map { $0...last }
        case .all: return nil
        }
    }

    /// How far back a board can be read: keys of periods that end within this many days.
    public static let readableDays = 90

    /// Whether a board's `key` can be read on the asking user's `today`: the current key, or one of a period that
    /// ended within ``readableDays``. Keys of periods still to come are not readable.
    public func isReadable(key: String, today: LocalDay) -> Bool {
        if self == .all { return key == "all" }
        guard let last = lastDay(ofKey: key), self.key(of: last) == key else { return false }
        let current = self.key(of: today)
        if key == current { return true }
        return last < today && today.days(since: last) <= Self.readableDays
    }
}
