import Foundation

/// REMINDER: a reminder the app showed, under the client's idempotency key. It is admitted like any fact (time window,
/// log allowance) and limited per local day; whether a log already answers it is read from the logs in its window.
/// It makes no day active and chooses no challenge.
extension ChangeDecider {
    /// The most reminders a user may report for one local day.
    static let remindersPerDay = 48

    /// A reminder reported again: answered with its state now.
    mutating func replayReminder(id: String) throws(Undecided) -> ChangeOutcome {
        guard let reminder = progress.accumulator.reminders.reminder(id: id) else {
            throw .refused(.conflict("reminder \"\(id)\" is not held"))
        }
        return .reminder(reminder, duplicate: true)
    }

    /// Stores a new reminder, answered when a live log already lies in its window.
    /// - Parameter allowance: the log allowance with the reminder spent, kept once it is decided.
    mutating func recordReminder(_ new: NewFact, allowance: LogAllowance) throws(Undecided) -> ChangeOutcome {
        guard case .reminder(let minutes, _) = new.content else { throw .refused(.conflict("not a reminder")) }
        guard let logs = pieces.logsWithin[new.at] else { throw .needs([.logsWithin(from: new.at, minutes: minutes)]) }
        progress.allowance = allowance
        var reminder = ReminderFact(id: new.id, at: new.at, day: new.day, windowMinutes: minutes)
        reminder.answered = logs.contains { reminder.isAnswered(byLogAt: $0.at) }
        progress.accumulator.record(reminder, settings: progress.settingsHistory)
        var stored = new
        stored.content = .reminder(windowMinutes: minutes, answered: reminder.answered)
        writes.fact = stored
        writes.allowance = progress.allowance
        // Rare, and not a fact a session elsewhere adds from the store: it loads the user again.
        writes.reloadsSessions = true
        settle(removesFacts: false)
        return .reminder(reminder, duplicate: false)
    }

    /// The window of a reminder on `day`, or why it is refused (the day's reminders are all reported).
    mutating func reminderWindow(on day: LocalDay) throws(Refusal) -> Int {
        guard progress.accumulator.reminders.count(on: day) < Self.remindersPerDay else {
            throw .invalidArgument(field: "at", message: "at most \(Self.remindersPerDay) reminders a day")
        }
        return progress.settingsHistory.reminderWindow(on: day)
    }
}
