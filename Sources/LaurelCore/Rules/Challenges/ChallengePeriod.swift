/// How long a challenge lasts: one local day, or one ISO week (Monday to Sunday) of local days.
public enum ChallengePeriod: String, Codable, Sendable, CaseIterable {
    case daily, weekly

    /// How many challenges a user has in one period.
    public var challengeCount: Int {
        switch self {
        case .daily: 3
        case .weekly: 1
        }
    }

    /// The first day of the period that contains `day`: the day itself, or the Monday of its ISO week.
    public func start(of day: LocalDay) -> LocalDay {
        switch self {
        case .daily: day
        case .weekly: day.isoWeek.monday
        }
    }

    /// The days of the period starting at `start`.
    public func days(from start: LocalDay) -> ClosedRange<LocalDay> {
        switch self {
        case .daily: start...start
        case .weekly: start...start.adding(days: 6)
        }
    }
}
