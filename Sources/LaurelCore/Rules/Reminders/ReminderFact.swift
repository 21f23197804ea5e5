import Foundation

/// A reminder the app showed the user (REMINDER), as the rules see it: answered by a live log within its window.
public struct ReminderFact: Hashable, Sendable, Codable {
    public var id: String
    public var at: Date
    /// The local day of `at` in the user's zone at reporting time (vacation days skip their reminders).
    public var day: LocalDay
    /// `reminder_window_minutes` in force on `day`, fixed when the reminder was stored.
    public var windowMinutes: Int
    /// Whether a live log answered it when it was stored. Logs stored later answer it as they are counted, and a
    /// recomputation from every fact judges it again from the logs alone.
    public var answered: Bool

    public init(id: String, at: Date, day: LocalDay, windowMinutes: Int, answered: Bool = false) {
        self.id = id
        self.at = at
        self.day = day
        self.windowMinutes = windowMinutes
        self.answered = answered
    }

    /// The end of the window in which a log answers it (inclusive).
    public var windowEndsAt: Date { at.addingTimeInterval(TimeInterval(windowMinutes * 60)) }

    /// Whether a log at `logAt` answers it: `[at, at + window]`.
    public func isAnswered(byLogAt logAt: Date) -> Bool {
        logAt >= at && logAt <= windowEndsAt
    }
}

/// What a reminder is now (`state` in REMINDER's answer).
public enum ReminderState: String, Sendable {
    case answered, pending, missed
}
