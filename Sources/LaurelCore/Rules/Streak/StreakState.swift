/// The daily streak as the profile shows it (`STREAK` in the protocol).
public struct StreakState: Hashable, Sendable, Codable {
    /// Consecutive active days, kept across rest days, vacations and used freezes.
    public var current: Int
    /// The largest `current` ever reached; the measure of the `streak` rule.
    public var longest: Int
    /// Freezes in hand, 0...2.
    public var freezes: Int
    /// Today is still inactive and would cost the streak (or a freeze) if it stayed so.
    public var atRisk: Bool
    public var lastActiveDay: LocalDay?

    public init(current: Int = 0, longest: Int = 0, freezes: Int = 0, atRisk: Bool = false, lastActiveDay: LocalDay? = nil) {
        self.current = current
        self.longest = longest
        self.freezes = freezes
        self.atRisk = atRisk
        self.lastActiveDay = lastActiveDay
    }
}

extension StreakState {
    /// The streak as it stood before `day`'s activity: `current` without `day` itself when `day` is active.
    /// Challenges are chosen with it, so a day's first fact does not make a streak to keep of itself, whichever
    /// path (before or after storing that fact) chooses.
    public func current(before day: LocalDay) -> Int {
        lastActiveDay == day ? max(0, current - 1) : current
    }
}
