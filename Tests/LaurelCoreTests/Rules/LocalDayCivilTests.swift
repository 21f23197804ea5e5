import LaurelTestSupport
import Testing
@testable import LaurelCore

/// A day number's year, month and day come from a fast conversion (unsigned 32-bit arithmetic) for the days it
/// covers and from the conversion by eras of 400 years for the rest: the two must agree on every day.
@Suite struct LocalDayCivilTests {
    /// Where the fast conversion's days begin: 82 eras of 400 years before 0000-03-01 (as `LocalDay` has it).
    static let firstFastDay = -(719_468 + 146_097 * 82)
    /// One past its last day: its arithmetic holds four times the days since its first, plus three, in 32 bits.
    static let endOfFastDays = (1 << 30) + firstFastDay

    static func mismatches(_ numbers: some Sequence<Int>) -> [Int] {
        numbers.filter { number in
            let fast = LocalDay.civil(fromDayNumber: number), byEras = LocalDay.civilByEras(fromDayNumber: number)
            return fast != byEras
        }
    }

    @Test func everyDayOfYearsOneTo9999AgreesWithTheConversionByEras() {
        let first = LocalDay.dayNumber(year: 1, month: 1, day: 1), last = LocalDay.dayNumber(year: 9999, month: 12, day: 31)
        #expect(Self.mismatches(first...last).isEmpty)
    }

    @Test func theDaysAtEitherEndOfTheFastConversionAgree() {
        let ends = Array((Self.firstFastDay - 800)...(Self.firstFastDay + 800)) + Array((Self.endOfFastDays - 800)...(Self.endOfFastDays + 800))
        #expect(Self.mismatches(ends).isEmpty)
        #expect(LocalDay.civil(fromDayNumber: Self.firstFastDay) == (-32800, 3, 1))
    }

    @Test func daysFarApartAgree() {
        var random = SeededRandom(seed: 1_970)
        let numbers = (0..<200_000).map { _ in random.below(4_000_000_000) - 2_000_000_000 }
        #expect(Self.mismatches(numbers).isEmpty)
    }
}
