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
