/// Streaks computed from scratch from the set of active days, as the rules describe them; the reference
/// that incremental bookkeeping must agree with.
public enum StreakCalculator {
    /// The outcome of a full walk: the state today and every event on the way, oldest first.
    public struct Walk: Hashable, Sendable {
        public var state: StreakState
        public var events: [StreakEvent]
        /// The walk stopped at the last active day, ready to be resumed with newer days.
        public var walker: StreakWalker
    }

    /// Walks the daily streak (with freezes) over `activeDays` up to `today`.
    /// - Parameters:
    ///   - activeDays: days with at least one live log or lesson completion, in any order, repeats allowed.
    ///   - settings: the rest-day and vacation history.
    ///   - today: the user's local date now.
    public static func walk(
        activeDays: some Sequence<LocalDay>, settings: StreakSettingsHistory, today: LocalDay
    ) -> Walk {
        var walker = StreakWalker(usesFreezes: true)
        var events: [StreakEvent] = []
        for day in Set(activeDays).sorted() {
            walker.recordActive(day, settings: settings, events: &events)
        }
        let state = walker.state(today: today, settings: settings, events: &events)
        return Walk(state: state, events: events, walker: walker)
    }

    /// The walker of a per-activity streak (no freezes) over the days that activity was logged.
    /// - Parameters:
    ///   - days: the days the activity was logged, in any order.
    ///   - settings: the rest-day and vacation history.
    public static func activityWalker(days: some Sequence<LocalDay>, settings: StreakSettingsHistory) -> StreakWalker {
        var walker = StreakWalker(usesFreezes: false)
        var ignored: [StreakEvent] = []
        for day in Set(days).sorted() {
            walker.recordActive(day, settings: settings, events: &ignored)
        }
        return walker
    }

    /// The longest per-activity streak, the measure of `activity_streak`.
    public static func longestActivityStreak(days: some Sequence<LocalDay>, settings: StreakSettingsHistory) -> Int {
        activityWalker(days: days, settings: settings).longest
    }
}
