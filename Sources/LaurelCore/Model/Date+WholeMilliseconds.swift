import Foundation

extension Date {
    /// Now, to the whole millisecond: the moment a change is decided at. Whatever shows it (an answer, a push, the
    /// store's microseconds read back and formatted) then shows the same instant to the millisecond.
    public static var nowInWholeMilliseconds: Date {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    /// The instant as PostgreSQL's `timestamptz` keeps it: whole microseconds since 1970.
    public var microsecondsSince1970: Int {
        Int((timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// The instant `microseconds` after 1970, as a `timestamptz` read back in microseconds.
    public init(microsecondsSince1970 microseconds: Int) {
        self.init(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }
}
