extension LocalDay {
    /// The local calendar month as `YYYY-MM` (a monthly template's period).
    public var monthKey: String {
        LocalDay.padded(year, 4) + "-" + LocalDay.padded(month, 2)
    }

    /// The local calendar month as a number, `year * 100 + month` (202611): a cheap key for per-month sums.
    public var monthNumber: Int {
        let (year, month, _) = components
        return year * 100 + month
    }

    /// `YYYY-MM` as `monthNumber` counts it; nil for text of another shape.
    public static func monthNumber(of key: String) -> Int? {
        let parts = key.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else { return nil }
        return year * 100 + month
    }

    /// The first day of the next calendar month.
    public var nextMonthStart: LocalDay {
        let (year, month, _) = components
        return LocalDay(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1) ?? adding(days: 31)
    }
}

/// An ISO 8601 week (Monday to Sunday) of local dates, named by its ISO year and week number; the unit of
/// `best_week` and `perfect_weeks`.
public struct ISOWeek: Hashable, Comparable, Sendable {
    /// The ISO week-numbering year, which differs from the calendar year around New Year.
    public let year: Int
    /// 1...53.
    public let week: Int

    public init(year: Int, week: Int) {
        self.year = year
        self.week = week
    }

    /// The Monday that starts the week.
    public var monday: LocalDay {
        let januaryFourth = LocalDay(daysSince1970: LocalDay.dayNumber(year: year, month: 1, day: 4))
        let firstMonday = januaryFourth.adding(days: 1 - januaryFourth.weekday.rawValue)
        return firstMonday.adding(days: (week - 1) * 7)
    }

    /// The seven days of the week, Monday first.
    public var days: [LocalDay] {
        let start = monday
        return (0..<7).map { start.adding(days: $0) }
    }

    public static func < (lhs: ISOWeek, rhs: ISOWeek) -> Bool {
        (lhs.year, lhs.week) < (rhs.year, rhs.week)
    }
}

extension ISOWeek: LosslessStringConvertible {
    /// `YYYY-Www`, as ISO 8601 writes week dates.
    public var description: String {
        LocalDay.padded(year, 4) + "-W" + LocalDay.padded(week, 2)
    }

    /// Parses `YYYY-Www`.
    public init?(_ description: String) {
        let parts = description.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 3, parts[1].first == "W",
              let year = Int(parts[0]), let week = Int(parts[1].dropFirst()), (1...53).contains(week)
        else { return nil }
        self.init(year: year, week: week)
    }
}

extension ISOWeek: Codable, CodingKeyRepresentable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let week = ISOWeek(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a YYYY-Www week: \(text)")
        }
        self = week
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public var codingKey: any CodingKey { WeekKey(stringValue: description) }

    public init?<T: CodingKey>(codingKey: T) {
        self.init(codingKey.stringValue)
    }

    private struct WeekKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
