/// What a challenge asks of the user; each kind belongs to one period and measures one figure of it.
public enum ChallengeKind: String, Codable, Sendable, CaseIterable {
    case logsToday = "logs_today"
    case amountToday = "amount_today"
    case distinctToday = "distinct_today"
    case beforeHour = "before_hour"
    case keepStreak = "keep_streak"
    case sessionsToday = "sessions_today"
    case minutesToday = "minutes_today"
    case lessonToday = "lesson_today"
    case activeDaysWeek = "active_days_week"

    public var period: ChallengePeriod {
        self == .activeDaysWeek ? .weekly : .daily
    }

    /// Whether the kind has an adaptive target N (with `min`, `max` and `default` in the pool); the others are
    /// done or not, with target 1.
    public var hasAdaptiveTarget: Bool {
        switch self {
        case .beforeHour, .keepStreak, .lessonToday: false
        default: true
        }
    }

    /// Whether a pool entry may name the activity the kind counts. `amount_today` picks its activity per user
    /// instead, so it never names one.
    public var mayNameActivity: Bool {
        switch self {
        case .logsToday, .sessionsToday, .minutesToday: true
        default: false
        }
    }
}
