/// Per-user limits of rules.md ("Limits and validation"), configurable by the operator.
public struct UserLimits: Sendable, Equatable {
    public var customActivities: Int
    public var templates: Int
    /// Sustained logs per second (token bucket refill rate) and the burst a syncing device may send at once.
    public var logsPerSecond: Double
    public var logBurst: Int
    /// Friends a user may have; accepting an invite when either side has this many is `too_large`.
    public var friends: Int

    public init(customActivities: Int = 200, templates: Int = 100, logsPerSecond: Double = 50, logBurst: Int = 1000, friends: Int = 500) {
        self.customActivities = customActivities
        self.templates = templates
        self.logsPerSecond = logsPerSecond
        self.logBurst = logBurst
        self.friends = friends
    }

    /// How long the allowance takes to refill by one log, rounded up to whole milliseconds.
    public var millisecondsPerLog: Int {
        guard logsPerSecond > 0 else { return 1000 }
        return max(1, Int((1000 / logsPerSecond).rounded(.up)))
    }
}
