import Foundation
import LaurelCore
import LaurelTestSupport
import Testing

/// How long a streak holds without new activity (`StreakWalker.holdsThrough`): the last day on which the walk still
/// shows the current streak, so that a figure stored at one evaluation can be read correctly on a later day.
@Suite struct StreakHoldTests {
    private func walker(_ days: [String], settings: StreakSettingsHistory = StreakSettingsHistory()) -> StreakWalker {
        StreakCalculator.walk(activeDays: days.map(Fixture.day), settings: settings, today: Fixture.day(days.last ?? "2024-05-01")).walker
    }

    @Test func withoutFreezesItHoldsThroughTheDayAfterTheLastActiveDay() {
        // Active through Thursday 2 May: Friday is at risk, Saturday it is broken.
        let held = walker(["2024-05-01", "2024-05-02"]).holdsThrough(settings: StreakSettingsHistory())
        #expect(held == Fixture.day("2024-05-03"))
    }

    @Test func eachFreezeInHandAddsADay() {
        let seven = walker(Fixture.days(from: "2024-05-01", count: 7))
        #expect(seven.freezes == 1)
        #expect(seven.holdsThrough(settings: StreakSettingsHistory()) == Fixture.day("2024-05-09"))
        let fourteen = walker(Fixture.days(from: "2024-05-01", count: 14))
        #expect(fourteen.holdsThrough(settings: StreakSettingsHistory()) == Fixture.day("2024-05-17"))
    }

    @Test func restDaysAreSkippedAndCostNothing() {
        var settings = StreakSettingsHistory()
        // Saturday 4 May on, Sundays are rest days: a streak ending on Saturday holds through Monday.
        settings.setRestDay(.sunday, from: Fixture.day("2024-05-04"))
        #expect(walker(["2024-05-03", "2024-05-04"], settings: settings).holdsThrough(settings: settings) == Fixture.day("2024-05-06"))
    }

    @Test func aVacationThatGoesOnHoldsForever() {
        var settings = StreakSettingsHistory()
        settings.setVacation(true, from: Fixture.day("2024-05-03"))
        #expect(walker(["2024-05-01", "2024-05-02"], settings: settings).holdsThrough(settings: settings) == nil)
        // A vacation that ended: the days after it count again.
        settings.setVacation(false, from: Fixture.day("2024-05-06"))
        #expect(walker(["2024-05-01", "2024-05-02"], settings: settings).holdsThrough(settings: settings) == Fixture.day("2024-05-06"))
    }

    @Test func noStreakHasNothingToHold() {
        #expect(StreakWalker(usesFreezes: true).holdsThrough(settings: StreakSettingsHistory()) == nil)
    }

    /// Whatever the history, the streak shown on any later day without activity is the current one through the day
    /// it holds, and 0 after it.
    @Test(arguments: 0..<6)
    func theWalkAgreesOnEveryLaterDay(batch: Int) {
        for seed in UInt64(batch * 40)..<UInt64(batch * 40 + 40) {
            var random = SeededRandom(seed: seed)
            let start = Fixture.day("2024-03-01")
            var settings = StreakSettingsHistory()
            var days: [LocalDay] = []
            for offset in 0..<Int.random(in: 1...40, using: &random) where Int.random(in: 0..<6, using: &random) > 0 {
                days.append(start.adding(days: offset))
            }
            guard let last = days.last else { continue }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let day = start.adding(days: Int.random(in: 0...55, using: &random))
                if Bool.random(using: &random) {
                    settings.setRestDay(Bool.random(using: &random) ? Weekday.allCases.randomElement(using: &random)! : nil, from: day)
                } else {
                    settings.setVacation(Int.random(in: 0..<3, using: &random) == 0, from: day)
                }
            }
            let walker = StreakCalculator.walk(activeDays: days, settings: settings, today: last).walker
            let held = walker.holdsThrough(settings: settings)
            for later in 1...70 {
                let today = last.adding(days: later)
                var ignored: [StreakEvent] = []
                let shown = walker.state(today: today, settings: settings, events: &ignored).current
                let expected = held.map { today <= $0 } ?? true ? walker.current : 0
                #expect(shown == expected, "seed \(seed), \(today), held through \(held?.description ?? "ever")")
            }
        }
    }
}
