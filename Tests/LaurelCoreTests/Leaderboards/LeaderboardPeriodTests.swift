import LaurelCore
import Testing

@Suite struct LeaderboardPeriodTests {
    let day = LocalDay(year: 2026, month: 11, day: 26)!

    @Test func keysOfADay() {
        #expect(LeaderboardPeriod.allCases.map { $0.key(of: day) } == ["2026-11-26", "2026-W48", "2026-11", "all"])
        // 2027-01-01 lies in ISO week 53 of 2026.
        #expect(LeaderboardPeriod.week.key(of: LocalDay(year: 2027, month: 1, day: 1)!) == "2026-W53")
    }

    @Test func lastDays() {
        #expect(LeaderboardPeriod.day.lastDay(ofKey: "2026-11-26") == day)
        #expect(LeaderboardPeriod.week.lastDay(ofKey: "2026-W48") == LocalDay(year: 2026, month: 11, day: 29))
        #expect(LeaderboardPeriod.month.lastDay(ofKey: "2026-02") == LocalDay(year: 2026, month: 2, day: 28))
        #expect(LeaderboardPeriod.month.lastDay(ofKey: "2026-12") == LocalDay(year: 2026, month: 12, day: 31))
        #expect(LeaderboardPeriod.all.lastDay(ofKey: "all") == nil)
        #expect(LeaderboardPeriod.week.lastDay(ofKey: "2026-11") == nil)
    }

    @Test func daysOfAKey() {
        #expect(LeaderboardPeriod.day.days(ofKey: "2026-11-26") == day...day)
        #expect(LeaderboardPeriod.week.days(ofKey: "2026-W48") == LocalDay(year: 2026, month: 11, day: 23)!...LocalDay(year: 2026, month: 11, day: 29)!)
        #expect(LeaderboardPeriod.month.days(ofKey: "2026-02") == LocalDay(year: 2026, month: 2, day: 1)!...LocalDay(year: 2026, month: 2, day: 28)!)
        #expect(LeaderboardPeriod.all.days(ofKey: "all") == nil)
    }

    @Test func readableKeysAreTheCurrentOneAndThoseEndedWithinNinetyDays() {
        #expect(LeaderboardPeriod.week.isReadable(key: "2026-W48", today: day))
        #expect(LeaderboardPeriod.day.isReadable(key: "2026-08-28", today: day))  // ended 90 days ago
        #expect(!LeaderboardPeriod.day.isReadable(key: "2026-08-27", today: day))
        #expect(!LeaderboardPeriod.day.isReadable(key: "2026-11-27", today: day))  // tomorrow
        #expect(LeaderboardPeriod.month.isReadable(key: "2026-08", today: day))  // ended 87 days ago
        #expect(!LeaderboardPeriod.month.isReadable(key: "2026-07", today: day))
        #expect(LeaderboardPeriod.all.isReadable(key: "all", today: day))
        #expect(!LeaderboardPeriod.week.isReadable(key: "2026-11-26", today: day))
        #expect(!LeaderboardPeriod.day.isReadable(key: "2026-11-26x", today: day))
    }

    @Test func boardsByName() {
        #expect(["xp", "logs", "challenges", "activity:pushups"].compactMap(LeaderboardBoard.init).map(\.description)
            == ["xp", "logs", "challenges", "activity:pushups"])
        #expect(LeaderboardBoard("activity:") == nil && LeaderboardBoard("score") == nil)
    }
}
