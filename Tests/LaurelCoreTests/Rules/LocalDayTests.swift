import Foundation
import LaurelCore
import Testing

@Suite struct LocalDayTests {
    @Test func componentsDescriptionAndParsing() throws {
        let day = try #require(LocalDay(year: 2024, month: 2, day: 29))
        #expect(day.description == "2024-02-29")
        #expect(LocalDay("2024-02-29") == day)
        #expect(day.year == 2024 && day.month == 2 && day.day == 29)
        #expect(LocalDay(year: 2023, month: 2, day: 29) == nil)
        #expect(LocalDay("2024-2-29") == nil)
        #expect(LocalDay("2024-13-01") == nil)
        #expect(LocalDay("abcd-01-01") == nil)
        #expect(LocalDay("1970-01-01")?.daysSince1970 == 0)
        #expect(LocalDay("1969-12-31")?.daysSince1970 == -1)
        #expect(LocalDay(daysSince1970: -1).description == "1969-12-31")
    }

    @Test func addingDaysAndDistance() {
        let day = Fixture.day("2024-02-28")
        #expect(day.adding(days: 1).description == "2024-02-29")
        #expect(day.adding(days: 2).description == "2024-03-01")
        #expect(day.adding(days: 366).description == "2025-02-28")
        #expect(day.adding(days: -59).description == "2023-12-31")
        #expect(Fixture.day("2025-01-01").days(since: Fixture.day("2024-01-01")) == 366)
        #expect(day.previous < day && day < day.next)
    }

    @Test func everyDayRoundTripsThroughItsComponentsAndItsText() {
        var day = Fixture.day("1899-12-25")
        for _ in 0..<100_000 {
            let (year, month, dayOfMonth) = day.components
            #expect(LocalDay(year: year, month: month, day: dayOfMonth) == day)
            #expect(LocalDay(day.description) == day, "\(day.description)")
            day = day.next
        }
    }

    @Test func weekdays() {
        #expect(Fixture.day("1970-01-01").weekday == .thursday)
        #expect(Fixture.day("2024-03-31").weekday == .sunday)
        #expect(Fixture.day("2024-04-01").weekday == .monday)
        #expect(Fixture.day("1969-12-29").weekday == .monday)
        #expect(Weekday(name: "Sunday") == .sunday)
        #expect(Weekday.friday.name == "friday")
    }

    @Test(arguments: [
        ("2020-12-31", "2020-W53"), ("2021-01-03", "2020-W53"), ("2021-01-04", "2021-W01"),
        ("2024-12-29", "2024-W52"), ("2024-12-30", "2025-W01"), ("2026-01-04", "2026-W01"),
        ("2024-03-31", "2024-W13"), ("2015-12-31", "2015-W53"), ("2016-01-01", "2015-W53"),
    ])
    func isoWeeks(dayText: String, weekText: String) throws {
        let week = Fixture.day(dayText).isoWeek
        #expect(week.description == weekText)
        #expect(ISOWeek(weekText) == week)
        #expect(week.days.contains(Fixture.day(dayText)))
        #expect(week.monday.weekday == .monday)
    }

    @Test func codableAsTextAndAsDictionaryKey() throws {
        let values: [LocalDay: Int] = [Fixture.day("2024-03-31"): 3]
        let data = try JSONEncoder().encode(values)
        #expect(String(decoding: data, as: UTF8.self) == #"{"2024-03-31":3}"#)
        #expect(try JSONDecoder().decode([LocalDay: Int].self, from: data) == values)
        let weeks: [ISOWeek: Int] = [Fixture.day("2024-03-31").isoWeek: 1]
        let weekData = try JSONEncoder().encode(weeks)
        #expect(String(decoding: weekData, as: UTF8.self) == #"{"2024-W13":1}"#)
        #expect(try JSONDecoder().decode([ISOWeek: Int].self, from: weekData) == weeks)
    }
}

@Suite struct LocalDateTimeTests {
    private func reading(_ date: Date, _ zone: String) -> (String, Int, Int) {
        let local = LocalDateTime(of: date, in: Fixture.zone(zone))
        return (local.day.description, local.hour, local.minute)
    }

    /// The length of a local day: from its first instant to the next day's, found by stepping minutes.
    private func hoursInDay(_ dayText: String, _ zone: String) -> Double {
        let tz = Fixture.zone(zone)
        let target = Fixture.day(dayText)
        var start: Date?
        var end: Date?
        var t = Fixture.instant(dayText, 0).addingTimeInterval(-20 * 3600)
        while end == nil {
            let day = LocalDay(of: t, in: tz)
            if start == nil, day == target { start = t }
            if day > target { end = t }
            t = t.addingTimeInterval(60)
        }
        return end!.timeIntervalSince(start!) / 3600
    }

    @Test func berlinSpringForwardAndFallBack() {
        #expect(reading(Fixture.instant("2024-03-30", 23, 0), "Europe/Berlin") == ("2024-03-31", 0, 0))
        #expect(reading(Fixture.instant("2024-03-31", 0, 59), "Europe/Berlin") == ("2024-03-31", 1, 59))
        #expect(reading(Fixture.instant("2024-03-31", 1, 0), "Europe/Berlin") == ("2024-03-31", 3, 0))
        #expect(reading(Fixture.instant("2024-03-31", 21, 59), "Europe/Berlin") == ("2024-03-31", 23, 59))
        #expect(reading(Fixture.instant("2024-03-31", 22, 0), "Europe/Berlin") == ("2024-04-01", 0, 0))
        #expect(hoursInDay("2024-03-31", "Europe/Berlin") == 23)
        // 02:30 happens twice on 2024-10-27; both are the same day.
        #expect(reading(Fixture.instant("2024-10-27", 0, 30), "Europe/Berlin") == ("2024-10-27", 2, 30))
        #expect(reading(Fixture.instant("2024-10-27", 1, 30), "Europe/Berlin") == ("2024-10-27", 2, 30))
        #expect(reading(Fixture.instant("2024-10-27", 22, 59), "Europe/Berlin") == ("2024-10-27", 23, 59))
        #expect(reading(Fixture.instant("2024-10-27", 23, 0), "Europe/Berlin") == ("2024-10-28", 0, 0))
        #expect(hoursInDay("2024-10-27", "Europe/Berlin") == 25)
    }

    @Test func newYorkSpringForwardAndFallBack() {
        #expect(reading(Fixture.instant("2024-03-10", 6, 59), "America/New_York") == ("2024-03-10", 1, 59))
        #expect(reading(Fixture.instant("2024-03-10", 7, 0), "America/New_York") == ("2024-03-10", 3, 0))
        #expect(reading(Fixture.instant("2024-03-11", 3, 59), "America/New_York") == ("2024-03-10", 23, 59))
        #expect(reading(Fixture.instant("2024-03-11", 4, 0), "America/New_York") == ("2024-03-11", 0, 0))
        #expect(hoursInDay("2024-03-10", "America/New_York") == 23)
        #expect(reading(Fixture.instant("2024-11-03", 5, 30), "America/New_York") == ("2024-11-03", 1, 30))
        #expect(reading(Fixture.instant("2024-11-03", 6, 30), "America/New_York") == ("2024-11-03", 1, 30))
        #expect(reading(Fixture.instant("2024-11-04", 4, 59), "America/New_York") == ("2024-11-03", 23, 59))
        #expect(reading(Fixture.instant("2024-11-04", 5, 0), "America/New_York") == ("2024-11-04", 0, 0))
        #expect(hoursInDay("2024-11-03", "America/New_York") == 25)
    }

    @Test func kiritimatiIsFourteenHoursAheadAndSkippedADay() {
        #expect(reading(Fixture.instant("2024-06-01", 9, 59), "Pacific/Kiritimati") == ("2024-06-01", 23, 59))
        #expect(reading(Fixture.instant("2024-06-01", 10, 0), "Pacific/Kiritimati") == ("2024-06-02", 0, 0))
        // The island moved across the date line: 1994-12-31 never happened there.
        #expect(reading(Fixture.instant("1994-12-31", 9, 59), "Pacific/Kiritimati") == ("1994-12-30", 23, 59))
        #expect(reading(Fixture.instant("1994-12-31", 10, 0), "Pacific/Kiritimati") == ("1995-01-01", 0, 0))
    }

    @Test func halfAndQuarterHourZones() {
        // St. John's: -3:30 in winter, -2:30 in summer.
        #expect(reading(Fixture.instant("2024-01-15", 3, 29), "America/St_Johns") == ("2024-01-14", 23, 59))
        #expect(reading(Fixture.instant("2024-01-15", 3, 30), "America/St_Johns") == ("2024-01-15", 0, 0))
        #expect(reading(Fixture.instant("2024-07-15", 2, 29), "America/St_Johns") == ("2024-07-14", 23, 59))
        #expect(reading(Fixture.instant("2024-07-15", 2, 30), "America/St_Johns") == ("2024-07-15", 0, 0))
        #expect(hoursInDay("2024-03-10", "America/St_Johns") == 23)
        // Kathmandu: +5:45.
        #expect(reading(Fixture.instant("2024-01-01", 18, 14), "Asia/Kathmandu") == ("2024-01-01", 23, 59))
        #expect(reading(Fixture.instant("2024-01-01", 18, 15), "Asia/Kathmandu") == ("2024-01-02", 0, 0))
    }

    @Test func instantsBefore1970AndFractionalSeconds() {
        #expect(reading(Date(timeIntervalSince1970: -0.5), "UTC") == ("1969-12-31", 23, 59))
        #expect(reading(Date(timeIntervalSince1970: 86_399.999), "UTC") == ("1970-01-01", 23, 59))
    }

    @Test(arguments: ["Europe/Berlin", "America/New_York", "Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu",
                      "Australia/Lord_Howe", "Pacific/Chatham", "UTC"])
    func agreesWithFoundationsCalendarOverDecades(zoneName: String) {
        let zone = Fixture.zone(zoneName)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // An odd step (about 6.3 hours) lands at every time of day and near many transitions over 1970-2040.
        for index in 0..<10_000 {
            let date = Date(timeIntervalSince1970: Double(index) * 22_691.5)
            let local = LocalDateTime(of: date, in: zone)
            let expected = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            #expect(local.day == LocalDay(year: expected.year!, month: expected.month!, day: expected.day!), "\(date)")
            #expect(local.hour == expected.hour && local.minute == expected.minute, "\(date)")
        }
    }
}

@Suite struct StreakSettingsHistoryTests {
    @Test func laterChangesDoNotRewriteEarlierDays() {
        var settings = StreakSettingsHistory()
        let sunday = Fixture.day("2024-03-31")
        #expect(!settings.isRestDay(sunday))
        settings.setRestDay(.sunday, from: Fixture.day("2024-04-01"))
        #expect(!settings.isRestDay(sunday))
        #expect(settings.isRestDay(sunday.adding(days: 7)))
        settings.setRestDay(nil, from: Fixture.day("2024-04-10"))
        #expect(settings.isRestDay(sunday.adding(days: 7)))
        #expect(!settings.isRestDay(sunday.adding(days: 14)))
        #expect(settings.restDay(on: Fixture.day("2024-04-09")) == .sunday)
    }

    @Test func vacationIsInForceFromItsDayUntilTurnedOff() {
        var settings = StreakSettingsHistory()
        settings.setVacation(true, from: Fixture.day("2024-05-10"))
        settings.setVacation(false, from: Fixture.day("2024-05-20"))
        #expect(!settings.isVacation(Fixture.day("2024-05-09")))
        #expect(settings.isVacation(Fixture.day("2024-05-10")))
        #expect(settings.isVacation(Fixture.day("2024-05-19")))
        #expect(!settings.isVacation(Fixture.day("2024-05-20")))
    }

    @Test func theLastChangeOfADayWins() {
        var settings = StreakSettingsHistory()
        settings.setVacation(true, from: Fixture.day("2024-05-10"))
        settings.setVacation(false, from: Fixture.day("2024-05-10"))
        #expect(!settings.isVacation(Fixture.day("2024-05-10")))
        let built = StreakSettingsHistory(vacationChanges: [
            DatedSetting(effective: Fixture.day("2024-05-12"), value: false),
            DatedSetting(effective: Fixture.day("2024-05-10"), value: true),
        ])
        #expect(built.isVacation(Fixture.day("2024-05-11")))
        #expect(!built.isVacation(Fixture.day("2024-05-12")))
        #expect(built.latestChangeDay == Fixture.day("2024-05-12"))
    }
}
