import LaurelCore
import LaurelStore

/// Local days cross the database boundary as `YYYY-MM-DD` text (`to_char(day, 'YYYY-MM-DD')` out, `$n::date` in).
extension PostgresRow {
    func localDay(_ column: String) throws -> LocalDay {
        guard let day = LocalDay(try string(column)) else { throw StoreError.failed("the stored \(column) is not a date") }
        return day
    }
}

extension PostgresValue {
    init(_ day: LocalDay?) {
        self = day.map { .text($0.description) } ?? .null
    }

    /// User ids as a `$n::bigint[]` parameter.
    init(userIDs: [UserID]) {
        self = .text("{" + userIDs.map { String($0.rawValue) }.joined(separator: ",") + "}")
    }
}
