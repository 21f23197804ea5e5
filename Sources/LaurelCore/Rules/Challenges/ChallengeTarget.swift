/// The target N of a challenge: the user's own recent level pushed a little, within the pool entry's bounds.
public enum ChallengeTarget {
    /// Fewer active days than this and the entry's default is used instead of the user's figures.
    public static let fewestDays = 3

    /// A daily target: clamp(round(1.2 × median of `figures`), min, max), or the entry's default when there
    /// are fewer than three figures. Kinds without an adaptive target have target 1.
    public static func daily(figures: [Int], entry: ChallengePoolEntry) -> Int {
        guard entry.kind.hasAdaptiveTarget else { return 1 }
        guard figures.count >= fewestDays else { return clamped(entry.defaultTarget ?? 1, entry) }
        return clamped(pushed(twiceMedian(figures)), entry)
    }

    /// The weekly target: clamp(active days of the previous week + 1, min, max), or the default when the user
    /// has fewer than three active days in the look-back.
    public static func weekly(history: ChallengeHistory, entry: ChallengePoolEntry) -> Int {
        guard history.activeDays.count >= fewestDays else { return clamped(entry.defaultTarget ?? 1, entry) }
        return clamped(history.activeDaysPreviousWeek + 1, entry)
    }

    /// Twice the median, so that the mean of the two middle values of an even count stays an integer.
    static func twiceMedian(_ figures: [Int]) -> Int {
        let sorted = figures.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? 2 * sorted[middle] : sorted[middle - 1] + sorted[middle]
    }

    /// round(1.2 × median), half away from zero, in integers: 1.2 × (twice / 2) = 3 × twice / 5. Figures are
    /// never negative, so rounding up at one half is rounding away from zero.
    static func pushed(_ twiceMedian: Int) -> Int {
        (6 * twiceMedian + 5) / 10
    }

    private static func clamped(_ value: Int, _ entry: ChallengePoolEntry) -> Int {
        Swift.max(entry.min ?? 1, Swift.min(entry.max ?? value, value))
    }
}
