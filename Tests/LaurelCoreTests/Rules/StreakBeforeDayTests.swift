import Foundation
import LaurelCore
import LaurelTestSupport
import Testing

/// `StreakState.current(before:)`: the streak as it stood before a day's activity, read from a state that already
/// counts that day. Challenges are chosen with it, whether the day's first fact was stored before choosing or not.
@Suite struct StreakBeforeDayTests {
    @Test(arguments: 0..<200)
    func theStreakBeforeADayIsTheStreakOfThatDayWithoutItsActivity(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let first = Fixture.day("2024-05-01")
        // Up to 30 days with gaps, rest days on some runs, then the day in question after them.
        let active = (0..<30).map { first.adding(days: $0) }.filter { _ in random.next() % 4 != 0 }
        var settings = StreakSettingsHistory()
        if seed % 3 == 0 { settings.setRestDay(.sunday, from: first) }
        let day = (active.last ?? first).adding(days: 1 + Int(random.next() % 3))
        let without = StreakCalculator.walk(activeDays: active, settings: settings, today: day).state
        let with = StreakCalculator.walk(activeDays: active + [day], settings: settings, today: day).state
        #expect(with.current(before: day) == without.current, "\(active) then \(day)")
        #expect(without.current(before: day) == without.current, "a day without activity takes nothing off")
    }
}
