import Foundation
import LaurelProtocol

/// Timestamps and dates as requests carry them, relative to the real clock: the server checks `at` against its
/// own clock, so tests build their times from `Date()`.
enum TestTime {
    static func minutes(_ count: Double) -> TimeInterval { count * 60 }
    static func days(_ count: Double) -> TimeInterval { count * 24 * 3600 }

    /// `date` without its fraction of a second, so it reads the same written with or without milliseconds.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// `date` in UTC with `Z`, as the server writes it.
    static func utc(_ date: Date) -> String {
        Timestamp.format(date)
    }

    /// `date` as local time at a fixed offset from UTC, such as `2026-11-20T09:15:00+01:00`.
    static func withOffset(_ date: Date, minutesEast offset: Int) -> String {
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return localText(date, secondsEast: offset * 60) + sign + twoDigits(magnitude / 60) + ":" + twoDigits(magnitude % 60)
    }

    /// `date` as UTC wall time with no offset at all, which RFC 3339 does not allow.
    static func withoutOffset(_ date: Date) -> String {
        localText(date, secondsEast: 0)
    }

    /// The calendar date of `date` in the IANA zone, `YYYY-MM-DD`.
    static func localDay(of date: Date, in zone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return "\(parts.year!)-\(twoDigits(parts.month!))-\(twoDigits(parts.day!))"
    }

    /// Today's date at `hour`:`minute` UTC, moved by `days`.
    static func utcDay(offsetBy days: Int, hour: Int, minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let midnight = calendar.startOfDay(for: Date())
        return midnight.addingTimeInterval(TimeInterval(days * 86_400 + hour * 3600 + minute * 60))
    }

    private static func localText(_ date: Date, secondsEast: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: secondsEast)!
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return "\(p.year!)-\(twoDigits(p.month!))-\(twoDigits(p.day!))T\(twoDigits(p.hour!)):\(twoDigits(p.minute!)):\(twoDigits(p.second!))"
    }

    private static func twoDigits(_ number: Int) -> String {
        number < 10 ? "0\(number)" : "\(number)"
    }
}
