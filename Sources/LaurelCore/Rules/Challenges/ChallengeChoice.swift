/// A challenge chosen for one user and period: what is stored, shown and measured until the period ends.
public struct ChallengeChoice: Sendable, Hashable, Codable {
    /// 0, 1 and 2 for the daily challenges, 0 for the weekly one.
    public var slot: Int
    public var kind: ChallengeKind
    public var period: ChallengePeriod
    /// The day, or the Monday of the ISO week.
    public var periodStart: LocalDay
    public var target: Int
    public var xp: Int
    /// The pool entry's title with its placeholders filled.
    public var title: String
    /// The activity id that `amount_today` (or an entry that names one) counts.
    public var activity: String?
    /// `before_hour`: the local hour a log must come before.
    public var hour: Int?

    public init(
        slot: Int, kind: ChallengeKind, period: ChallengePeriod, periodStart: LocalDay, target: Int, xp: Int,
        title: String, activity: String? = nil, hour: Int? = nil
    ) {
        self.slot = slot
        self.kind = kind
        self.period = period
        self.periodStart = periodStart
        self.target = target
        self.xp = xp
        self.title = title
        self.activity = activity
        self.hour = hour
    }

    /// Stable for the user and period, e.g. `daily-2026-11-24-0`, so clients and pushes can name the challenge.
    public var id: String { "\(period.rawValue)-\(periodStart)-\(slot)" }

    /// Whether `other` is the same challenge (has the same ``id``), told without making the ids: a first LOG of the
    /// day compares each challenge it completes with those it chose, and an id is a string built from a day.
    public func hasSameID(as other: ChallengeChoice) -> Bool {
        slot == other.slot && period == other.period && periodStart == other.periodStart
    }

    /// The days whose facts count for this challenge.
    public var days: ClosedRange<LocalDay> { period.days(from: periodStart) }
}
