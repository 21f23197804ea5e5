import LaurelCore
import Testing

/// A friend's streak from stored figures: it holds through `holdsThrough` and is 0 after; it is at risk while today is
/// not active and is neither a rest day nor a vacation day.
@Suite struct StreakGlanceTests {
    let monday = LocalDay(year: 2026, month: 11, day: 23)!

    @Test func activeTodayIsNotAtRisk() {
        let glance = StreakGlance(stored: 4, lastActiveDay: monday, holdsThrough: monday.next, today: monday, excused: false)
        #expect(glance == StreakGlance(current: 4, atRisk: false))
    }

    @Test func activeYesterdayHoldsTodayAtRisk() {
        let glance = StreakGlance(stored: 4, lastActiveDay: monday, holdsThrough: monday.next, today: monday.next, excused: false)
        #expect(glance == StreakGlance(current: 4, atRisk: true))
        let restDay = StreakGlance(stored: 4, lastActiveDay: monday, holdsThrough: monday.adding(days: 2), today: monday.next, excused: true)
        #expect(restDay == StreakGlance(current: 4, atRisk: false))
    }

    @Test func pastTheLastDayItHoldsThroughTheStreakIsGone() {
        let glance = StreakGlance(stored: 4, lastActiveDay: monday, holdsThrough: monday.next, today: monday.adding(days: 2), excused: false)
        #expect(glance == StreakGlance(current: 0, atRisk: false))
    }

    @Test func aFreezeKeepsItLongerButEveryInactiveDayIsAtRisk() {
        let holds = monday.adding(days: 2)
        #expect(StreakGlance(stored: 7, lastActiveDay: monday, holdsThrough: holds, today: holds, excused: false)
            == StreakGlance(current: 7, atRisk: true))
    }

    @Test func aVacationHoldsForGoodAndNothingIsAtRisk() {
        let glance = StreakGlance(stored: 3, lastActiveDay: monday, holdsThrough: nil, today: monday.adding(days: 30), excused: true)
        #expect(glance == StreakGlance(current: 3, atRisk: false))
    }

    @Test func noStreakNoRisk() {
        #expect(StreakGlance(stored: 0, lastActiveDay: nil, holdsThrough: nil, today: monday, excused: false) == StreakGlance(current: 0, atRisk: false))
    }
}
