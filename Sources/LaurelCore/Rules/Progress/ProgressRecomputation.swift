import Foundation

/// Every measure and the streak computed from scratch from all of a user's facts: the reference the server
/// falls back to after a deletion, a settings change that reaches into walked days, or a new speed window,
/// and the one the incremental `ProgressAccumulator` is tested against.
public struct ProgressRecomputation: Sendable {
    public let measures: ProgressMeasures
    /// The daily streak walk up to today, with its events.
    public let streak: StreakCalculator.Walk
    /// The weekly goal streak walked from the first active week to today.
    public let weeklyGoalStreak: WeeklyGoalStreak
    /// The reminder streak at the moment given (every window over when none was).
    public let reminderStreak: ReminderStreak

    /// - Parameters:
    ///   - facts: live logs, lesson completions and events.
    ///   - settings: the rest-day and vacation history.
    ///   - today: the user's local date now.
    ///   - speedWindows: the windows to measure speed for (see `SpeedWindow.required(by:)`).
    ///   - now: the moment, for reminders whose window is still open (nil: every window is over).
    public init(facts: ProgressFacts, settings: StreakSettingsHistory, today: LocalDay, now: Date? = nil, speedWindows: Set<SpeedWindow>) {
        var measures = ProgressMeasures()
        let lessons = facts.countedLessons

        measures.totalLogs = facts.logs.count
        measures.earliestLocalHour = facts.logs.map(\.localHour).min()
        measures.latestLocalHour = facts.logs.map(\.localHour).max()

        let logsByActivity = Dictionary(grouping: facts.logs, by: \.activity)
        for (activity, logs) in logsByActivity {
            let byDay = Dictionary(grouping: logs, by: \.day).mapValues { $0.reduce(0) { $0 + $1.amount } }
            let byWeek = Dictionary(grouping: logs, by: \.day.isoWeek).mapValues { $0.reduce(0) { $0 + $1.amount } }
            measures.activities[activity] = ActivityMeasures(
                total: logs.reduce(0) { $0 + $1.amount },
                logs: logs.count,
                bestDay: byDay.values.max() ?? 0,
                bestWeek: byWeek.values.max() ?? 0,
                longestStreak: StreakCalculator.longestActivityStreak(days: byDay.keys, settings: settings),
                months: Dictionary(grouping: logs, by: \.day.monthNumber).mapValues { $0.reduce(0) { $0 + $1.amount } }
            )
        }

        let logsByDay = Dictionary(grouping: facts.logs, by: \.day)
        measures.busiestDay = logsByDay.values.map(\.count).max() ?? 0
        measures.dayVariety = logsByDay.values.map { Set($0.map(\.activity)).count }.max() ?? 0

        // Every completion makes its day active, a repeated lesson's too; the lesson itself counts once (below).
        let activeDays = Set(facts.logs.map(\.day)).union(facts.lessons.map(\.day))
        measures.activeDays = activeDays.count
        measures.perfectWeeks = Dictionary(grouping: activeDays, by: \.isoWeek).values.count(where: { $0.count == 7 })

        let streak = StreakCalculator.walk(activeDays: activeDays, settings: settings, today: today)
        measures.longestStreak = streak.state.longest
        let weeklyGoalStreak = WeeklyGoalWalker.fromStart(activeDays: activeDays.sorted(), settings: settings)
            .state(today: today, activeDays: activeDays.sorted(), settings: settings)
        measures.longestWeeklyStreak = weeklyGoalStreak.longest
        let reminderStreak = Self.reminderStreak(facts, settings: settings, now: now ?? .distantFuture)
        measures.longestReminderStreak = reminderStreak.longest

        for window in speedWindows {
            measures.speeds[window] = window.best(in: logsByActivity[window.activity] ?? [])
        }

        measures.completedLessons = lessons.count
        for lesson in lessons {
            measures.lessonsByCategory[lesson.category, default: 0] += 1
        }
        for event in facts.events {
            measures.events[event.name, default: 0] += 1
        }

        self.measures = measures
        self.streak = streak
        self.weeklyGoalStreak = weeklyGoalStreak
        self.reminderStreak = reminderStreak
    }

    /// The rules' reminder walk over every reminder, each answered when a live log lies in its window.
    private static func reminderStreak(_ facts: ProgressFacts, settings: StreakSettingsHistory, now: Date) -> ReminderStreak {
        var streak = ReminderStreak()
        for reminder in facts.reminders.sorted(by: { $0.at < $1.at }) where !settings.isVacation(reminder.day) {
            if facts.logs.contains(where: { reminder.isAnswered(byLogAt: $0.at) }) {
                streak.current += 1
                streak.longest = max(streak.longest, streak.current)
            } else if now <= reminder.windowEndsAt {
                streak.pending += 1
            } else {
                streak.current = 0
            }
        }
        return streak
    }
}
