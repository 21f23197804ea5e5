import CLibPQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A statement's result read in place, before libpq frees it: columns by position, numbers parsed from libpq's text
/// without a `String` made for each. For results read on every batch (the commits' outcomes), where making
/// ``PostgresRows`` (a string for every value, names looked up per row) cost more than reading them.
struct PostgresResultReader: ~Copyable {
    private let result: LibPQResult

    init(_ result: consuming LibPQResult) {
        self.result = result
    }

    var rowCount: Int { Int(PQntuples(result.raw)) }

    /// Checks that the result's columns are `names`, in this order, so that they can be read by position: the
    /// names compared where libpq keeps them. (Looking each name up with `PQfnumber`, which copies and folds it
    /// first, cost 6,000 instructions on every commit batch.)
    func expectColumns(_ names: [StaticString]) throws(PostgresError) {
        guard PQnfields(result.raw) == Int32(names.count) else {
            throw .decoding("expected \(names.count) columns, got \(PQnfields(result.raw))")
        }
        for (position, name) in names.enumerated() {
            guard let actual = PQfname(result.raw, Int32(position)),
                  strlen(actual) == name.utf8CodeUnitCount, memcmp(actual, name.utf8Start, name.utf8CodeUnitCount) == 0 else {
                throw .decoding("expected column \(position) to be \"\(name)\"")
            }
        }
    }

    func isNull(row: Int, column: Int32) -> Bool {
        PQgetisnull(result.raw, Int32(row), column) == 1
    }

    /// The text of a value, or nil when it is NULL.
    func text(row: Int, column: Int32) -> String? {
        isNull(row: row, column: column) ? nil : String(cString: PQgetvalue(result.raw, Int32(row), column))
    }

    /// Whether a value is exactly `expected` (its bytes compared in place).
    func value(row: Int, column: Int32, is expected: StaticString) -> Bool {
        guard !isNull(row: row, column: column), let value = PQgetvalue(result.raw, Int32(row), column) else { return false }
        let length = Int(PQgetlength(result.raw, Int32(row), column))
        return length == expected.utf8CodeUnitCount && memcmp(value, expected.utf8Start, length) == 0
    }

    /// An integer column's value, or nil when it is NULL; a decoding error when it is not a decimal integer.
    func int(row: Int, column: Int32) throws(PostgresError) -> Int? {
        guard !isNull(row: row, column: column), let value = PQgetvalue(result.raw, Int32(row), column) else { return nil }
        let length = Int(PQgetlength(result.raw, Int32(row), column))
        guard let number = Self.decimal(UnsafeRawBufferPointer(start: value, count: length)) else {
            throw .decoding("column \(column) holds \(String(cString: value)), not an integer")
        }
        return number
    }

    /// The integer `text` writes in decimal (an optional minus, then digits), or nil.
    static func decimal(_ text: UnsafeRawBufferPointer) -> Int? {
        var bytes = text[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty else { return nil }
        // Eighteen digits cannot overflow, so most numbers (seqs, versions, times in microseconds: a commit's outcome
        // is a handful of them a part) are summed without a check at each digit.
        if bytes.count <= 18 {
            var value = 0
            for byte in bytes {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int(digit)
            }
            return negative ? -value : value
        }
        // Accumulated as a negative number, so that Int.min fits.
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedAgain) = shifted.subtractingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            guard !overflowed, !overflowedAgain else { return nil }
            value = next
        }
        if negative { return value }
        return value == Int.min ? nil : -value
    }
}
