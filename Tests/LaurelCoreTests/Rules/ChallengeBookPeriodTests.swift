import Foundation
import LaurelCore
import Testing

/// The book's periods are keys of every decision's look-ups, hashed and compared by their kind's case and their first
/// day: a day's period and the week's period starting that day are different keys, and equal periods one key.
@Suite struct ChallengeBookPeriodTests {
    private let monday = LocalDay(daysSince1970: 20_787)  // 2026-11-30, a Monday

    @Test func aDayAndTheWeekStartingThatDayAreDifferentPeriods() {
        let day = ChallengeBook.Period(.daily, start: monday)
        let week = ChallengeBook.Period(.weekly, containing: monday.adding(days: 3))
        #expect(week.start == monday)
        #expect(day != week)
        var book = ChallengeBook()
        book.know(day, stored: [])
        #expect(book.challenges(of: day) == [])
        #expect(book.challenges(of: week) == nil)
        #expect(book.challenges(of: ChallengeBook.Period(.daily, start: monday.adding(days: 1))) == nil)
    }

    @Test func equalPeriodsAreOneKey() {
        let periods = (0..<14).flatMap { offset in
            ChallengePeriod.allCases.map { ChallengeBook.Period($0, containing: monday.adding(days: offset)) }
        }
        // Fourteen days, fourteen daily periods; two ISO weeks.
        #expect(Set(periods).count == 16)
        for period in periods {
            let again = ChallengeBook.Period(period.kind, start: period.start)
            #expect(again == period && again.hashValue == period.hashValue)
        }
        // Ordered by first day, a day's period before the week's that starts the same day.
        #expect(Set(periods).sorted().prefix(2).map(\.kind) == [.daily, .weekly])
    }
}
