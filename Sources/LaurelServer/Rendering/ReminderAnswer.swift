import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol

/// REMINDER's answer: `{"reminder": {"id", "at", "state", "window_ends_at"}, "duplicate", "reminder_streak"}`. A
/// repeat is answered with the reminder's state now, not with the first answer.
enum ReminderAnswer {
    static func bytes(for decision: Decision) -> [UInt8]? {
        guard case .reminder(let reminder, let duplicate) = decision.outcome else { return nil }
        let now = decision.decidedAt
        var json = JSONWriter(capacity: 200)
        json.beginObject()
        json.key("reminder")
        json.beginObject()
        json.field("id", reminder.id)
        json.field("at", timestamp: reminder.at)
        json.field("state", ReminderTally.state(of: decision.progress.accumulator.reminders.reminder(id: reminder.id) ?? reminder, now: now).rawValue)
        json.field("window_ends_at", timestamp: reminder.windowEndsAt)
        json.endObject()
        json.field("duplicate", duplicate)
        json.key("reminder_streak")
        StreakRendering.write(decision.progress.reminderStreak(at: now), into: &json)
        json.endObject()
        return json.finish()
    }
}
