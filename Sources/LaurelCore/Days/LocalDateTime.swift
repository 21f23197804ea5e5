import Foundation

/// The wall-clock reading of an instant in a time zone: the local day and the time of day. It follows the
/// zone's real rules, so a 23- or 25-hour day around a daylight-saving change is still one `LocalDay`.
public struct LocalDateTime: Hashable, Sendable {
    public let day: LocalDay
    /// Seconds since local midnight as the wall clock shows them, 0..<86400.
    public let secondOfDay: Int
    /// The zone's offset from UTC at that instant, in seconds.
    public let utcOffsetSeconds: Int

    /// Reads `date` in `zone`.
    /// - Parameters:
    ///   - date: the instant.
    ///   - zone: the user's time zone; its offset at that very instant is used.
    public init(of date: Date, in zone: TimeZone) {
        // One offset lookup and integer arithmetic; a Calendar or DateFormatter would be far slower and
        // gives the same answer for any instant, because the offset already reflects daylight saving.
        let offset = zone.secondsFromGMT(for: date)
        let localSeconds = Int((date.timeIntervalSince1970).rounded(.down)) + offset
        let (days, remainder) = localSeconds.quotientAndRemainder(dividingBy: 86_400)
        if remainder < 0 {
            day = LocalDay(daysSince1970: days - 1)
            secondOfDay = remainder + 86_400
        } else {
            day = LocalDay(daysSince1970: days)
            secondOfDay = remainder
        }
        utcOffsetSeconds = offset
    }

    /// 0...23.
    public var hour: Int { secondOfDay / 3600 }
    /// 0...59.
    public var minute: Int { secondOfDay % 3600 / 60 }
}

extension LocalDay {
    /// The local date of `date` in `zone`: what "today" or a log's `day` is.
    /// - Parameters:
    ///   - date: the instant.
    ///   - zone: the user's time zone.
    public init(of date: Date, in zone: TimeZone) {
        self = LocalDateTime(of: date, in: zone).day
    }
}
