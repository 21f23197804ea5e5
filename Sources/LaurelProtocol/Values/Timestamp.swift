import Foundation
import LaurelCore

/// RFC 3339 timestamps as the protocol uses them: parsed strictly from requests, written in UTC.
///
/// Parsing accepts `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+hh:mm|-hh:mm)`, with `t` and `z` also allowed in
/// lower case as RFC 3339 permits. The offset is required, the date must exist, hours are 00-23, minutes
/// 00-59 and the offset at most ±23:59. Leap seconds (`:60`) are rejected because `Date` cannot hold them.
/// Fractions may have any number of digits; precision beyond nanoseconds is dropped.
///
/// Formatting writes UTC with `Z`, and milliseconds only when they are not zero:
/// `2026-11-20T08:15:00Z`, `2026-11-20T08:15:00.250Z`.
public enum Timestamp {
    /// Parses an RFC 3339 timestamp with an offset; `nil` if the text is not one.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20,
            let date = DateText.parse(bytes, at: 0),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = decimal(bytes, 11, 2), hour <= 23,
            let minute = decimal(bytes, 14, 2), minute <= 59,
            let second = decimal(bytes, 17, 2), second <= 59
        else {
            return nil
        }
        var position = 19
        var nanoseconds = 0
        if bytes[position] == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            var scale = 100_000_000
            while position < bytes.count, let digit = decimal(bytes, position, 1) {
                nanoseconds += digit * scale
                scale /= 10
                position += 1
            }
            guard position > fractionStart else {
                return nil
            }
        }
        guard position < bytes.count else {
            return nil
        }
        let offsetSeconds: Int
        switch bytes[position] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard position + 1 == bytes.count else { return nil }
            offsetSeconds = 0
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard position + 6 == bytes.count, bytes[position + 3] == UInt8(ascii: ":"),
                let offsetHours = decimal(bytes, position + 1, 2), offsetHours <= 23,
                let offsetMinutes = decimal(bytes, position + 4, 2), offsetMinutes <= 59
            else {
                return nil
            }
            let magnitude = offsetHours * 3600 + offsetMinutes * 60
            offsetSeconds = bytes[position] == UInt8(ascii: "+") ? magnitude : -magnitude
        default:
            return nil
        }
        let seconds = date.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// Formats `date` in UTC, rounded to the millisecond, with a fraction only when it is not zero.
    public static func format(_ date: Date) -> String {
        let parts = UTCParts(date)
        guard let length = parts.writtenLength else { return parts.slowText }
        return String(unsafeUninitializedCapacity: length) { text in
            parts.write(into: text)
            return length
        }
    }

    /// A moment rounded to the millisecond, taken apart for writing.
    struct UTCParts {
        let day: LocalDay
        let date: (year: Int, month: Int, day: Int)
        let secondOfDay: Int
        let milliseconds: Int

        init(_ moment: Date) {
            let totalMilliseconds = Int((moment.timeIntervalSince1970 * 1000).rounded())
            milliseconds = Timestamp.modulo(totalMilliseconds, 1000)
            let totalSeconds = (totalMilliseconds - milliseconds) / 1000
            secondOfDay = Timestamp.modulo(totalSeconds, 86_400)
            day = LocalDay(daysSince1970: (totalSeconds - secondOfDay) / 86_400)
            date = day.components
        }

        /// How long the text is when ``write(into:)`` can write it (a year of four digits); nil otherwise.
        var writtenLength: Int? {
            guard LocalDay.hasFourDigitYear(date) else { return nil }
            return milliseconds == 0 ? 20 : 24
        }

        /// The text of a moment whose year is not four digits, put together piece by piece.
        var slowText: String {
            var text = day.description + "T"
            text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
            if milliseconds != 0 {
                text += "." + pad(milliseconds, 3)
            }
            return text + "Z"
        }

        /// Writes the text digit by digit into `text`, which is ``writtenLength`` bytes long: every answer and push
        /// carries timestamps.
        func write(into text: UnsafeMutableBufferPointer<UInt8>) {
            LocalDay.writeDescription(of: date, into: text, at: 0)
            text[10] = UInt8(ascii: "T")
            FixedWidthDigits.write(secondOfDay / 3600, count: 2, into: text, at: 11)
            text[13] = UInt8(ascii: ":")
            FixedWidthDigits.write(secondOfDay / 60 % 60, count: 2, into: text, at: 14)
            text[16] = UInt8(ascii: ":")
            FixedWidthDigits.write(secondOfDay % 60, count: 2, into: text, at: 17)
            if milliseconds != 0 {
                text[19] = UInt8(ascii: ".")
                FixedWidthDigits.write(milliseconds, count: 3, into: text, at: 20)
            }
            text[text.count - 1] = UInt8(ascii: "Z")
        }
    }

    fileprivate static func modulo(_ value: Int, _ divisor: Int) -> Int {
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
