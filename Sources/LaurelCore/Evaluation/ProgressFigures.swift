/// The figures derived from a user's facts that the store keeps beside them, so that operators' SQL reads them
/// and a new session starts from them; all of them can be recomputed from the facts.
public struct ProgressFigures: Sendable, Equatable {
    public var xp = 0
    public var level = 1
    /// The highest level ever reached (deleting logs does not lower it).
    public var highestLevel = 1
    /// The streak as the user last saw it: a STREAK push tells what changed since.
    public var shownStreak = StreakState()
    /// The last local day through which the streak keeps its length without new activity (nil: for good), so that
    /// SQL can tell the streak of a later day.
    public var streakHoldsThrough: LocalDay?
    /// The XP of every challenge the user completed.
    public var challengeXP = 0
    /// Unlocks worth XP (PROFILE's `unlocked`).
    public var unlocked = 0
    public var totalLogs = 0
    public var activeDays = 0
    /// The latest week whose weekly goal was met and pushed (`GOAL` goes once a week).
    public var goalMetWeek: ISOWeek?

    public init() {}
}
