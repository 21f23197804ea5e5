import Foundation
import LaurelCore
import LaurelTestSupport
import Testing

/// The reminder streak of rules.md: a reminder is answered by a live log in `[at, at + window]`, pending while its
/// window is open, missed after; the walk in `at` order extends on answered, breaks on missed, ignores pending and
/// skips vacation days. Kept incrementally by `ReminderTally`, checked against `ProgressRecomputation`.
@Suite struct ReminderStreakTests {
    static let day = "2024-05-06"

    static func reminder(_ id: String, _ hour: Int, _ minute: Int = 0, window: Int = 30, day: String = ReminderStreakTests.day) -> ReminderFact {
        ReminderFact(id: id, at: Fixture.instant(day, hour, minute), day: Fixture.day(day), windowMinutes: window)
    }

    /// Reminders recorded first, then logs, as a session counts them; compared with the recomputation.
    private func streak(
        _ reminders: [ReminderFact], logs: [LoggedFact], now: Date, settings: StreakSettingsHistory = StreakSettingsHistory()
    ) -> ReminderStreak {
        let facts = ProgressFacts(logs: logs, reminders: reminders)
        let incremental = Fixture.accumulate(facts, settings: settings).reminderStreak(now: now, settings: settings)
        let recomputed = ProgressRecomputation(facts: facts, settings: settings, today: Fixture.day(Self.day), now: now, speedWindows: [])
        #expect(incremental == recomputed.reminderStreak)
        let rebuilt = ProgressAccumulator(rebuildingFrom: facts, settings: settings, speedWindows: [])
        #expect(rebuilt.reminderStreak(now: now, settings: settings) == recomputed.reminderStreak)
        return incremental
    }

    @Test func answeredPendingAndMissed() {
        let reminders = [Self.reminder("a", 8), Self.reminder("b", 10), Self.reminder("c", 12), Self.reminder("d", 14)]
        // a answered at its window's last instant, b missed, c answered, d still open at 14:20.
        let logs = [Fixture.log("l1", "squats", 1, Self.day, 8, 30), Fixture.log("l2", "squats", 1, Self.day, 12, 5)]
        let streak = streak(reminders, logs: logs, now: Fixture.instant(Self.day, 14, 20))
        #expect(streak == ReminderStreak(current: 1, longest: 1, pending: 1))
        // Once d's window is over it is missed.
        #expect(self.streak(reminders, logs: logs, now: Fixture.instant(Self.day, 14, 31)) == ReminderStreak(current: 0, longest: 1))
        // A log before a reminder does not answer it.
        #expect(self.streak([Self.reminder("e", 9)], logs: [Fixture.log("l3", "squats", 1, Self.day, 8, 59)], now: .distantFuture)
            == ReminderStreak())
    }

    @Test func vacationDaysAreSkipped() {
        var settings = StreakSettingsHistory()
        settings.setVacation(true, from: Fixture.day("2024-05-07"))
        settings.setVacation(false, from: Fixture.day("2024-05-08"))
        let reminders = [
            Self.reminder("a", 9), Self.reminder("b", 9, day: "2024-05-07"), Self.reminder("c", 9, day: "2024-05-08"),
        ]
        let logs = [Fixture.log("l1", "squats", 1, Self.day, 9, 10), Fixture.log("l2", "squats", 1, "2024-05-08", 9, 10)]
        // The missed reminder of the vacation day breaks nothing.
        #expect(streak(reminders, logs: logs, now: .distantFuture, settings: settings) == ReminderStreak(current: 2, longest: 2))
        #expect(streak(reminders, logs: logs, now: .distantFuture) == ReminderStreak(current: 1, longest: 1))
    }

    @Test func aBackfilledLogAnswersAnOldReminderAndALateReminderIsPlacedByItsTime() {
        var tally = ReminderTally()
        let settings = StreakSettingsHistory()
        for hour in [8, 10, 12] { tally.record(Self.reminder("r\(hour)", hour), settings: settings) }
        tally.answer(byLogAt: Fixture.instant(Self.day, 12, 1), settings: settings)
        tally.answer(byLogAt: Fixture.instant(Self.day, 18), settings: settings)
        #expect(tally.streak(now: .distantFuture, settings: settings) == ReminderStreak(current: 1, longest: 1))
        // The 8:00 and 10:00 reminders answered late by backfills: the walk over them is done again.
        tally.answer(byLogAt: Fixture.instant(Self.day, 8, 15), settings: settings)
        tally.answer(byLogAt: Fixture.instant(Self.day, 10, 15), settings: settings)
        #expect(tally.streak(now: .distantFuture, settings: settings) == ReminderStreak(current: 3, longest: 3))
        // A reminder reported late for 9:00, never answered, splits the run.
        tally.record(Self.reminder("r9", 9), settings: settings)
        #expect(tally.streak(now: .distantFuture, settings: settings) == ReminderStreak(current: 2, longest: 2))
        #expect(tally.count(on: Fixture.day(Self.day)) == 4)
    }

    @Test func aDeletedAnsweringLogMakesTheReminderUnansweredAgain() {
        let reminders = [Self.reminder("a", 8), Self.reminder("b", 10)]
        let logs = [Fixture.log("l1", "squats", 1, Self.day, 8, 5), Fixture.log("l2", "squats", 1, Self.day, 10, 5)]
        #expect(streak(reminders, logs: logs, now: .distantFuture).longest == 2)
        // The stored flag said answered; a recomputation judges from the logs that are left.
        var stored = reminders
        stored[0].answered = true
        stored[1].answered = true
        let rebuilt = ProgressAccumulator(rebuildingFrom: ProgressFacts(logs: [logs[1]], reminders: stored), settings: StreakSettingsHistory(), speedWindows: [])
        #expect(rebuilt.reminderStreak(now: .distantFuture, settings: StreakSettingsHistory()) == ReminderStreak(current: 1, longest: 1))
    }

    @Test func aLogAheadOfNowLeavesEarlierWindowsOpen() {
        // A log five minutes ahead settles the 9:00 reminder as missed for the walk, but at 9:28 it is still pending.
        var tally = ReminderTally()
        let settings = StreakSettingsHistory()
        tally.record(Self.reminder("a", 9), settings: settings)
        tally.record(Self.reminder("b", 9, 31, window: 5), settings: settings)
        tally.answer(byLogAt: Fixture.instant(Self.day, 9, 33), settings: settings)
        #expect(tally.streak(now: Fixture.instant(Self.day, 9, 28), settings: settings) == ReminderStreak(current: 1, longest: 1, pending: 1))
        #expect(tally.streak(now: Fixture.instant(Self.day, 9, 40), settings: settings) == ReminderStreak(current: 1, longest: 1))
    }

    /// rules.md: REMINDER spends the log allowance like a LOG; a repeat of a stored one spends nothing.
    @Test func remindersSpendTheLogAllowance() throws {
        var user = EvaluatedUser(
            catalog: try ShippedCatalogFiles.standfit(), now: AchievementExplainerTests.now, limits: UserLimits(logsPerSecond: 0.001, logBurst: 2))
        try user.apply(.report(ReportedFact(.reminder, id: "r1", at: nil)))
        try user.log("squats", 1)
        #expect(throws: Refusal.rateLimited(retryAfterMs: 1_000_000)) {
            try user.apply(.report(ReportedFact(.reminder, id: "r2", at: nil)))
        }
        let repeated = try user.apply(.report(ReportedFact(.reminder, id: "r1", at: nil)))
        guard case .reminder(_, let duplicate) = repeated.outcome else { Issue.record("not a reminder"); return }
        #expect(duplicate)
    }
}
