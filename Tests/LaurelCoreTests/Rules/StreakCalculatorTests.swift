import Foundation
import LaurelCore
import Testing

@Suite struct StreakCalculatorTests {
    private func walk(_ days: [String], today: String, settings: StreakSettingsHistory = StreakSettingsHistory())
        -> StreakCalculator.Walk
    {
        StreakCalculator.walk(activeDays: days.map(Fixture.day), settings: settings, today: Fixture.day(today))
    }

    private func kinds(_ walk: StreakCalculator.Walk, on day: String) -> [StreakEvent.Kind] {
        walk.events.filter { $0.day == Fixture.day(day) }.map(\.kind)
    }

    @Test func noActivityIsAnEmptyStreak() {
        let result = walk([], today: "2024-05-01")
        #expect(result.state == StreakState())
        #expect(result.events.isEmpty)
    }

    @Test func consecutiveDaysExtendAndAFreezeIsEarnedAtSeven() {
        let days = Fixture.days(from: "2024-05-01", count: 7)
        let six = walk(Array(days.prefix(6)), today: "2024-05-06")
        #expect(six.state == StreakState(current: 6, longest: 6, freezes: 0, atRisk: false, lastActiveDay: Fixture.day("2024-05-06")))
        let seven = walk(days, today: "2024-05-07")
        #expect(seven.state.current == 7)
        #expect(seven.state.freezes == 1)
        #expect(kinds(seven, on: "2024-05-07") == [.extended, .freezeEarned])
        #expect(seven.events.count(where: { $0.kind == .extended }) == 7)
    }

    @Test func freezesAreCappedAtTwo() {
        let result = walk(Fixture.days(from: "2024-05-01", count: 21), today: "2024-05-21")
        #expect(result.state.current == 21)
        #expect(result.state.freezes == 2)
        #expect(result.events.count(where: { $0.kind == .freezeEarned }) == 2)
    }

    @Test func aFreezeCoversAGap() {
        let days = Fixture.days(from: "2024-05-01", count: 7) + ["2024-05-09"]
        let result = walk(days, today: "2024-05-09")
        #expect(kinds(result, on: "2024-05-08") == [.freezeUsed])
        #expect(result.state.current == 8)
        #expect(result.state.longest == 8)
        #expect(result.state.freezes == 0)
    }

    @Test func theStreakBreaksWhenFreezesRunOut() {
        // 14 days earn two freezes; a three-day gap uses both and then breaks.
        let days = Fixture.days(from: "2024-05-01", count: 14) + ["2024-05-18"]
        let result = walk(days, today: "2024-05-18")
        #expect(kinds(result, on: "2024-05-15") == [.freezeUsed])
        #expect(kinds(result, on: "2024-05-16") == [.freezeUsed])
        #expect(kinds(result, on: "2024-05-17") == [.broken])
        #expect(result.state.current == 1)
        #expect(result.state.longest == 14)
        #expect(result.state.freezes == 0)
    }

    @Test func aGapWithoutFreezesBreaksOnItsFirstDay() {
        let result = walk(["2024-05-01", "2024-05-02", "2024-05-10"], today: "2024-05-10")
        #expect(kinds(result, on: "2024-05-03") == [.broken])
        #expect(result.events.count(where: { $0.kind == .broken }) == 1)
        #expect(result.state.current == 1)
        #expect(result.state.longest == 2)
    }

    @Test func todayInactiveIsAtRiskAndBreaksNothing() {
        let result = walk(["2024-05-01", "2024-05-02"], today: "2024-05-03")
        #expect(result.state == StreakState(current: 2, longest: 2, freezes: 0, atRisk: true, lastActiveDay: Fixture.day("2024-05-02")))
        let active = walk(["2024-05-01", "2024-05-02", "2024-05-03"], today: "2024-05-03")
        #expect(!active.state.atRisk)
        let dayAfter = walk(["2024-05-01", "2024-05-02"], today: "2024-05-04")
        #expect(dayAfter.state.current == 0)
        #expect(!dayAfter.state.atRisk)
        #expect(dayAfter.state.lastActiveDay == Fixture.day("2024-05-02"))
    }

    @Test func aRestDayKeepsTheStreakButOnlyFromWhenItWasSet() {
        // 2024-05-05 and 2024-05-12 are Sundays.
        var settings = StreakSettingsHistory()
        settings.setRestDay(.sunday, from: Fixture.day("2024-05-08"))
        let days = ["2024-05-03", "2024-05-04", "2024-05-06"] + ["2024-05-10", "2024-05-11", "2024-05-13"]
        let result = walk(days, today: "2024-05-13", settings: settings)
        // The Sunday before the setting was an ordinary day and broke the streak.
        #expect(kinds(result, on: "2024-05-05") == [.broken])
        // 05-07 .. 05-09 break it again (no freezes); the Sunday after the setting keeps it.
        #expect(kinds(result, on: "2024-05-12").isEmpty)
        #expect(result.state.current == 3)
        let restToday = walk(["2024-05-10", "2024-05-11"], today: "2024-05-12", settings: settings)
        #expect(restToday.state.current == 2)
        #expect(!restToday.state.atRisk)
    }

    @Test func aVacationKeepsTheStreakForItsDaysOnly() {
        var settings = StreakSettingsHistory()
        settings.setVacation(true, from: Fixture.day("2024-05-03"))
        settings.setVacation(false, from: Fixture.day("2024-05-06"))
        let result = walk(["2024-05-01", "2024-05-02", "2024-05-06"], today: "2024-05-06", settings: settings)
        #expect(result.state.current == 3)
        #expect(result.events.allSatisfy { $0.kind == .extended })
        let afterVacation = walk(["2024-05-01", "2024-05-02"], today: "2024-05-07", settings: settings)
        #expect(afterVacation.state.current == 0)
        #expect(kinds(afterVacation, on: "2024-05-06") == [.broken])
    }

    @Test func aBackfilledLogRepairsAGap() {
        let gap = walk(["2024-05-01", "2024-05-02", "2024-05-04", "2024-05-05"], today: "2024-05-05")
        #expect(gap.state.current == 2)
        #expect(gap.state.longest == 2)
        let repaired = walk(["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-04", "2024-05-05"], today: "2024-05-05")
        #expect(repaired.state.current == 5)
        #expect(repaired.state.longest == 5)

        // The accumulator takes the backfill as one more fact.
        var accumulator = Fixture.accumulate(ProgressFacts(logs: Fixture.logs(on: ["2024-05-01", "2024-05-02", "2024-05-04", "2024-05-05"])))
        let settings = StreakSettingsHistory()
        #expect(accumulator.streak(today: Fixture.day("2024-05-05"), settings: settings).current == 2)
        accumulator.record(Fixture.log("backfill", "squats", 1, "2024-05-03"), neighbours: [], settings: settings)
        #expect(accumulator.streak(today: Fixture.day("2024-05-05"), settings: settings) == repaired.state)
        #expect(accumulator.measures.longestStreak == 5)
    }

    @Test func perActivityStreaksHonourRestDaysAndVacationsButHaveNoFreezes() {
        var settings = StreakSettingsHistory()
        settings.setRestDay(.sunday, from: Fixture.day("2024-04-01"))
        // Fri, Sat, (Sun rest), Mon; then a gap on Wednesday breaks it.
        let days = ["2024-05-03", "2024-05-04", "2024-05-06", "2024-05-08"].map(Fixture.day)
        #expect(StreakCalculator.longestActivityStreak(days: days, settings: settings) == 3)
        let fourteen = Fixture.days(from: "2024-05-01", count: 14).map(Fixture.day) + [Fixture.day("2024-05-16")]
        let walker = StreakCalculator.activityWalker(days: fourteen, settings: StreakSettingsHistory())
        #expect(walker.longest == 14)
        #expect(walker.current == 1)
        #expect(walker.freezes == 0)
    }

    @Test func whichPushAChangeIsWorth() {
        let base = StreakState(current: 6, longest: 6, freezes: 0)
        #expect(StreakEvent.worthShowing(before: base, after: StreakState(current: 7, longest: 7, freezes: 1)) == .freezeEarned)
        #expect(StreakEvent.worthShowing(before: base, after: StreakState(current: 7, longest: 7, freezes: 0)) == .extended)
        #expect(StreakEvent.worthShowing(before: base, after: StreakState(current: 0, longest: 6, freezes: 0)) == .broken)
        let frozen = StreakState(current: 8, longest: 8, freezes: 1)
        #expect(StreakEvent.worthShowing(before: frozen, after: StreakState(current: 8, longest: 8, freezes: 0)) == .freezeUsed)
        #expect(StreakEvent.worthShowing(before: base, after: base) == nil)
        #expect(StreakEvent.worthShowing(before: base, after: StreakState(current: 5, longest: 6, freezes: 0)) == nil)
        #expect(StreakEvent.Kind.freezeEarned.rawValue == "freeze_earned")
    }

    @Test func aLogTodayExtendsTheStreakAsThePushDecisionSeesIt() {
        let settings = StreakSettingsHistory()
        var accumulator = Fixture.accumulate(ProgressFacts(logs: Fixture.logs(on: Fixture.days(from: "2024-05-01", count: 6))))
        let today = Fixture.day("2024-05-07")
        let before = accumulator.streak(today: today, settings: settings)
        #expect(before.atRisk)
        accumulator.record(Fixture.log("today", "squats", 1, "2024-05-07"), neighbours: [], settings: settings)
        let after = accumulator.streak(today: today, settings: settings)
        #expect(StreakEvent.worthShowing(before: before, after: after) == .freezeEarned)
        #expect(after == walk(Fixture.days(from: "2024-05-01", count: 7), today: "2024-05-07").state)
    }
}
