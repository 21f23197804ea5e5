import Foundation
import LaurelCore

/// Timestamps cross the libpq boundary as whole microseconds since 1970, PostgreSQL's own precision, so no
/// value changes on the way in or out and no DateStyle or TimeZone setting matters.
enum PostgresTimestamp {
    /// SQL that turns a bigint parameter of microseconds into a timestamptz.
    static func parameter(_ index: Int) -> String {
        "('epoch'::timestamptz + $\(index)::bigint * interval '1 microsecond')"
    }

    /// SQL that turns a timestamptz column into microseconds.
    static func column(_ expression: String, as name: String) -> String {
        "(extract(epoch FROM \(expression)) * 1000000)::bigint AS \(name)"
    }

    static func microseconds(_ date: Date) -> Int {
        date.microsecondsSince1970
    }

    static func date(microseconds: Int) -> Date {
        Date(microsecondsSince1970: microseconds)
    }
}
