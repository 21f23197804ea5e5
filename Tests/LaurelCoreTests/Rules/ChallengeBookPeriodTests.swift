import Foundation
import LaurelCore
import Testing

/// The book's periods are what every decision looks challenges up by, hashed and compared by their kind's case and
/// their first day: a day's period and the week's period starting that day are different periods, and equal periods
/// one.
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

    /// The book keeps its periods in order however they became known, replaces what is known again, marks a
    /// completion in its period only, and forgets what ended before a day (a week still running stays).
    @Test func periodsAreKeptInOrderAndForgottenWhenEnded() {
        func choice(_ period: ChallengeBook.Period, slot: Int) -> StoredChallenge {
            StoredChallenge(
                choice: ChallengeChoice(
                    slot: slot, kind: .logsToday, period: period.kind, periodStart: period.start, target: 2, xp: 10,
                    title: "Log 2 exercises"),
                completedAt: nil)
        }
        let days = (0..<5).map { ChallengeBook.Period(.daily, start: monday.adding(days: $0)) }
        let week = ChallengeBook.Period(.weekly, start: monday)
        var book = ChallengeBook()
        for period in [days[3], week, days[0], days[4], days[1]] { book.know(period, stored: [choice(period, slot: 1), choice(period, slot: 0)]) }
        #expect(book.knownPeriods == [days[0], week, days[1], days[3], days[4]])
        #expect(book.challenges(of: days[3])?.map(\.choice.slot) == [0, 1], "in slot order")
        #expect(book.challenges(of: days[2]) == nil)

        book.know(days[3], stored: [])
        #expect(book.challenges(of: days[3]) == [] && book.knownPeriods.count == 5, "known again, not twice")

        let completed = choice(days[1], slot: 1).choice
        book.complete(completed, at: Date(timeIntervalSince1970: 1_796_000_000))
        #expect(book.challenges(of: days[1])?.map { $0.completedAt != nil } == [false, true])
        #expect(book.challenges(of: days[0])?.allSatisfy { $0.completedAt == nil } == true)
        #expect(book.open().count == 7, "two days and the week with two each, one of them completed; day 3 holds none")
        #expect(book.containsOpen(in: { $0 == days[1] }) { $0.pointee.slot == 0 })
        #expect(!book.containsOpen(in: { $0 == days[1] }) { $0.pointee.slot == 1 }, "the completed one is not open")

        book.forget(endingBefore: days[2].start)
        #expect(book.knownPeriods == [week, days[3], days[4]])
    }
}
