import Foundation

/// A calendar date in a user's local time (proleptic Gregorian), the unit in which streaks, daily totals and
/// weeks are counted. It is stored as a day number so that comparing, hashing and stepping are integer work.
public struct LocalDay: Hashable, Comparable, Sendable {
    /// Days since 1970-01-01 (which is day 0).
    public let daysSince1970: Int

    public init(daysSince1970: Int) {
        self.daysSince1970 = daysSince1970
    }

    /// The day with these components, or nil when they name no date (month 13, February 30, ...).
    /// - Parameters:
    ///   - year: the Gregorian year, 1...9999 so that the description keeps four digits.
    ///   - month: 1...12.
    ///   - day: 1...the length of the month.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= LocalDay.length(ofMonth: month, year: year)
        else { return nil }
        daysSince1970 = LocalDay.dayNumber(year: year, month: month, day: day)
    }

    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    /// Year, month and day at once, cheaper than asking for them one by one.
    public var components: (year: Int, month: Int, day: Int) {
        LocalDay.civil(fromDayNumber: daysSince1970)
    }

    /// The day `count` days later (earlier for a negative count).
    public func adding(days count: Int) -> LocalDay {
        LocalDay(daysSince1970: daysSince1970 + count)
    }

    public var next: LocalDay { adding(days: 1) }
    public var previous: LocalDay { adding(days: -1) }

    /// Whole days from `other` to this day: positive when this day is later.
    public func days(since other: LocalDay) -> Int {
        daysSince1970 - other.daysSince1970
    }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday, ISO weekday 4.
        let offset = (daysSince1970 + 3) % 7
        return Weekday(rawValue: (offset < 0 ? offset + 7 : offset) + 1)!
    }

    /// The ISO week (Monday to Sunday) this day belongs to.
    public var isoWeek: ISOWeek {
        let thursday = adding(days: 4 - weekday.rawValue)
        let (isoYear, _, _) = thursday.components
        let firstOfYear = LocalDay.dayNumber(year: isoYear, month: 1, day: 1)
        return ISOWeek(year: isoYear, week: (thursday.daysSince1970 - firstOfYear) / 7 + 1)
    }

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool {
        lhs.daysSince1970 < rhs.daysSince1970
    }

    static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Civil-calendar conversions in closed form (eras of 400 years, years starting in March) so that no
    // Calendar is needed on hot paths.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month and day of a day number. A decision asks it some ten times (weeks, months, the days it writes), so
    /// the days of years -32800 to some 2,900,000 go through Neri and Schneider's Euclidean affine functions
    /// ("Euclidean affine functions and their application to calendar algorithms", 2022): unsigned 32-bit
    /// multiplications and shifts, some 25 instructions where the eras below take some 100.
    static func civil(fromDayNumber number: Int) -> (year: Int, month: Int, day: Int) {
        guard number >= -fastCivilShift, number < (1 << 30) - fastCivilShift else { return civilByEras(fromDayNumber: number) }
        // Days since March 1st of year -32800 (82 eras of 400 years before year 0), so that everything is unsigned and
        // a year ends with February (its leap day last).
        let shifted = UInt32(truncatingIfNeeded: number &+ fastCivilShift)
        let centuryQuarters = 4 &* shifted &+ 3
        let century = centuryQuarters / 146_097
        let dayOfCentury = centuryQuarters % 146_097 / 4
        let yearQuarters = UInt64(4 &* dayOfCentury &+ 3) &* 2_939_745
        let yearOfCentury = UInt32(truncatingIfNeeded: yearQuarters >> 32)
        let dayOfYear = UInt32(truncatingIfNeeded: yearQuarters) / 2_939_745 / 4
        let monthAndDay = 2141 &* dayOfYear &+ 197_913
        let month = monthAndDay >> 16
        let day = (monthAndDay & 0xFFFF) / 2141
        let january = dayOfYear >= 306
        let year = Int(100 &* century &+ yearOfCentury) - 400 * 82 + (january ? 1 : 0)
        return (year, Int(january ? month &- 12 : month), Int(day &+ 1))
    }

    /// Day 0 of the fast conversion, as a day number: 82 eras of 400 years before 0000-03-01.
    private static let fastCivilShift = 719_468 + 146_097 * 82

    /// The same conversion for any day number, by eras of 400 years, years starting in March.
    static func civilByEras(fromDayNumber number: Int) -> (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension LocalDay: LosslessStringConvertible {
    /// Parses exactly `YYYY-MM-DD`.
    public init?(_ description: String) {
        let bytes = Array(description.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        // The date is worked out once, for the check and the digits both (days are written in every stored row).
        let date = components
        guard LocalDay.hasFourDigitYear(date) else {
            return LocalDay.padded(date.year, 4) + "-" + LocalDay.padded(date.month, 2) + "-" + LocalDay.padded(date.day, 2)
        }
        return String(unsafeUninitializedCapacity: 10) { text in
            LocalDay.writeDescription(of: date, into: text, at: 0)
            return 10
        }
    }

    /// Whether the year of `date` (a day's ``components``) is 0...9999, so that
    /// ``writeDescription(of:into:at:)`` writes it in ten bytes.
    public static func hasFourDigitYear(_ date: (year: Int, month: Int, day: Int)) -> Bool { (0...9999).contains(date.year) }

    /// Writes `date` (a day's ``components``, ``hasFourDigitYear(_:)``) as `YYYY-MM-DD` into ten bytes of `text`
    /// from `start` on: for the writers of answers and rows, which work the date out once for the check and this.
    public static func writeDescription(of date: (year: Int, month: Int, day: Int), into text: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        FixedWidthDigits.write(date.year, count: 4, into: text, at: start)
        text[start + 4] = UInt8(ascii: "-")
        FixedWidthDigits.write(date.month, count: 2, into: text, at: start + 5)
        text[start + 7] = UInt8(ascii: "-")
        FixedWidthDigits.write(date.day, count: 2, into: text, at: start + 8)
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension LocalDay: Codable, CodingKeyRepresentable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = LocalDay(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a YYYY-MM-DD date: \(text)")
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public var codingKey: any CodingKey { DayKey(stringValue: description) }

    public init?<T: CodingKey>(codingKey: T) {
        self.init(codingKey.stringValue)
    }

    private struct DayKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
