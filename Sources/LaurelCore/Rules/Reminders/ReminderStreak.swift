/// The reminder streak as the profile shows it (`RSTREAK` in the protocol).
public struct ReminderStreak: Hashable, Sendable {
    /// Answered reminders in a row (in `at` order), vacation days' reminders skipped.
    public var current: Int
    /// The largest `current` ever reached; the measure of the `reminder_streak` rule.
    public var longest: Int
    /// Reminders whose window is still open and that no log answered yet.
    public var pending: Int

    public init(current: Int = 0, longest: Int = 0, pending: Int = 0) {
        self.current = current
        self.longest = longest
        self.pending = pending
    }
}
