/// One entry of a catalog's challenge pool: a kind the chooser may offer, how its title reads, the bounds of
/// its target and the XP it gives.
public struct ChallengePoolEntry: Sendable, Hashable {
    public var kind: ChallengeKind
    /// With `{n}` (the target) and `{activity}` (the activity's name) placeholders.
    public var title: String
    /// The bounds and default of the target; nil for kinds without one (`before_hour`, `keep_streak`,
    /// `lesson_today`), whose target is 1.
    public var min: Int?
    public var max: Int?
    public var defaultTarget: Int?
    public var xp: Int
    /// `before_hour`: the local hour a log must come before.
    public var hour: Int?
    /// The activity id `logs_today`, `sessions_today` or `minutes_today` counts; nil to count every activity.
    public var activity: String?

    public init(
        kind: ChallengeKind, title: String, min: Int? = nil, max: Int? = nil, defaultTarget: Int? = nil, xp: Int,
        hour: Int? = nil, activity: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.min = min
        self.max = max
        self.defaultTarget = defaultTarget
        self.xp = xp
        self.hour = hour
        self.activity = activity
    }
}
