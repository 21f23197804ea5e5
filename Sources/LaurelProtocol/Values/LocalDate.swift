/// A calendar date without a time or zone (`YYYY-MM-DD`), as used for `from`/`to` in requests and `day` in logs.
///
/// Only real dates of the proleptic Gregorian calendar with a four-digit year exist: `2026-02-30` and
/// `2025-02-29` cannot be made. Dates order chronologically and print as `YYYY-MM-DD`.
struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    let year: Int
    let month: Int
    let day: Int

    /// Makes a date, or `nil` when the year is outside 0...9999 or the day does not exist in that month.
    init?(year: Int, month: Int, day: Int) {
        guard (0...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= LocalDate.daysIn(month: month, year: year)
        else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD` (ASCII digits, no surrounding space), or returns `nil`.
    init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 10, let date = LocalDate.parse(utf8, at: 0) else {
            return nil
        }
        self = date
    }

    /// Reads `YYYY-MM-DD` from `bytes` starting at `offset`; shared with the timestamp parser.
    static func parse(_ bytes: [UInt8], at offset: Int) -> LocalDate? {
        guard bytes.count >= offset + 10,
            bytes[offset + 4] == UInt8(ascii: "-"), bytes[offset + 7] == UInt8(ascii: "-"),
            let year = decimal(bytes, offset, 4),
            let month = decimal(bytes, offset + 5, 2),
            let day = decimal(bytes, offset + 8, 2)
        else {
            return nil
        }
        return LocalDate(year: year, month: month, day: day)
    }

    /// Whether `year` has a 29 February.
    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` (1...12) of `year`.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (negative before it).
    var daysSinceEpoch: Int {
        // Counts from 1 March so the leap day falls at the end of the shifted year.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    var description: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }
}

/// Reads `count` ASCII digits at `offset` as a decimal number.
func decimal(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
    var value = 0
    for index in offset..<(offset + count) {
        let byte = bytes[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
            return nil
        }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
}

/// `value` in decimal, zero-padded on the left to `width` digits.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
