import Foundation

/// A user's reminders in `at` order with whether each is answered, and the reminder streak walk over them.
///
/// The walk of rules.md: answered extends the streak, missed breaks it, pending changes nothing, reminders on
/// vacation days are skipped. The walk over the reminders whose window ended before anything the user did since
/// (a *settled* prefix) is kept, so that a LOG or PROFILE walks only the last few reminders however many there are;
/// an earlier reminder answered late (a backfilled log), a reminder reported late, or a vacation change walks the
/// prefix again.
public struct ReminderTally: Hashable, Sendable {
    /// Sorted by `at`, then in the order they were recorded.
    public internal(set) var reminders: [ReminderFact] = []
    /// How many reminders were recorded on each local day (the daily limit).
    var perDay: [LocalDay: Int] = [:]
    /// The walk over `reminders[..<settledCount]`, whose windows all ended by `settledBy`.
    var settledCount = 0
    var settledCurrent = 0
    var settledLongest = 0
    var settledBy = Date.distantPast
    /// The vacation changes the settled walk was made with: another history walks it again.
    var settledVacations: [DatedSetting<Bool>] = []
    /// The latest moment the user is known to have reached (a reminder's or a log's `at`).
    var latest = Date.distantPast

    public init() {}

    /// Reminders recorded on `day`.
    public func count(on day: LocalDay) -> Int { perDay[day] ?? 0 }

    /// The reminder stored under `id`, if any.
    public func reminder(id: String) -> ReminderFact? { reminders.first { $0.id == id } }

    /// Adds a reminder, answered or not as decided when it was stored.
    public mutating func record(_ reminder: ReminderFact, settings: StreakSettingsHistory) {
        let index = reminders.firstIndex { $0.at > reminder.at } ?? reminders.count
        reminders.insert(reminder, at: index)
        perDay[reminder.day, default: 0] += 1
        if index < settledCount { unsettle() }
        latest = max(latest, reminder.at)
        settle(settings: settings)
    }

    /// Counts a new live log at `at`: the reminders whose window holds it are answered.
    public mutating func answer(byLogAt at: Date, settings: StreakSettingsHistory) {
        // Windows are at most a few hours: only reminders from that far back can hold the log.
        let earliest = at.addingTimeInterval(-TimeInterval(UserSettings.reminderWindows.upperBound * 60))
        var index = reminders.firstIndex(sortedBy: \.at, notBefore: earliest)
        while index < reminders.count, reminders[index].at <= at {
            if !reminders[index].answered, reminders[index].isAnswered(byLogAt: at) {
                reminders[index].answered = true
                if index < settledCount { unsettle() }
            }
            index += 1
        }
        latest = max(latest, at)
        settle(settings: settings)
    }

    /// The walk again from scratch: after a vacation change (which can skip reminders already walked).
    public mutating func walkAgain(settings: StreakSettingsHistory) {
        unsettle()
        settle(settings: settings)
    }

    /// Every reminder judged again from `logs` (a recomputation from every fact).
    public init(reminders: [ReminderFact], logs: [LoggedFact], settings: StreakSettingsHistory) {
        let instants = logs.map(\.at).sorted()
        for var reminder in reminders.sorted(by: { $0.at < $1.at }) {
            let first = instants.insertionIndex(of: reminder.at)
            reminder.answered = first < instants.count && instants[first] <= reminder.windowEndsAt
            record(reminder, settings: settings)
        }
        latest = max(latest, instants.last ?? .distantPast)
        settle(settings: settings)
    }

    /// The streak at `now`.
    public func streak(now: Date, settings: StreakSettingsHistory) -> ReminderStreak {
        var walk = Walk()
        var start = 0
        // A reminder settled as missed is still pending until its window ends (a log up to 5 minutes ahead of now).
        if now > settledBy, settledVacations == settings.vacationChanges {
            (walk.current, walk.longest, start) = (settledCurrent, settledLongest, settledCount)
        }
        for reminder in reminders[start...] { walk.step(reminder, now: now, settings: settings) }
        return ReminderStreak(current: walk.current, longest: walk.longest, pending: walk.pending)
    }

    /// The state of one reminder at `now`.
    public static func state(of reminder: ReminderFact, now: Date) -> ReminderState {
        if reminder.answered { return .answered }
        return now <= reminder.windowEndsAt ? .pending : .missed
    }

    /// Forgets the settled walk; the next `settle` walks from the first reminder (rare: a late answer or reminder).
    private mutating func unsettle() {
        (settledCount, settledCurrent, settledLongest, settledBy) = (0, 0, 0, .distantPast)
    }

    /// Extends the settled walk over the reminders whose window ended by the latest moment the user reached (walking
    /// it again first when the vacation history is not the one it was walked with, as in a state read back from a
    /// snapshot made before a vacation change).
    public mutating func settle(settings: StreakSettingsHistory) {
        if settledVacations != settings.vacationChanges {
            unsettle()
            settledVacations = settings.vacationChanges
        }
        var walk = Walk(current: settledCurrent, longest: settledLongest)
        while settledCount < reminders.count, reminders[settledCount].windowEndsAt < latest {
            let reminder = reminders[settledCount]
            walk.step(reminder, now: latest, settings: settings)
            settledBy = max(settledBy, reminder.windowEndsAt)
            settledCount += 1
        }
        (settledCurrent, settledLongest) = (walk.current, walk.longest)
    }

    /// The rules' walk, one reminder at a time.
    private struct Walk {
        var current = 0
        var longest = 0
        var pending = 0

        mutating func step(_ reminder: ReminderFact, now: Date, settings: StreakSettingsHistory) {
            guard !settings.isVacation(reminder.day) else { return }
            switch ReminderTally.state(of: reminder, now: now) {
            case .answered:
                current += 1
                longest = max(longest, current)
            case .missed:
                current = 0
            case .pending:
                pending += 1
            }
        }
    }
}
