import LaurelCore

/// Dates as the protocol writes them, `YYYY-MM-DD`, read strictly into the core's `LocalDay`: ASCII digits, no
/// surrounding space, and only real dates (`2026-02-30` and `2025-02-29` are not).
enum DateText {
    /// Parses exactly `YYYY-MM-DD`, or returns `nil`.
    static func parse(_ text: String) -> LocalDay? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 10 else { return nil }
        return parse(utf8, at: 0)
    }

    /// Reads `YYYY-MM-DD` from `bytes` starting at `offset`; shared with the timestamp parser.
    static func parse(_ bytes: [UInt8], at offset: Int) -> LocalDay? {
        guard bytes.count >= offset + 10,
            bytes[offset + 4] == UInt8(ascii: "-"), bytes[offset + 7] == UInt8(ascii: "-"),
            let year = decimal(bytes, offset, 4),
            let month = decimal(bytes, offset + 5, 2),
            let day = decimal(bytes, offset + 8, 2)
        else {
            return nil
        }
        return LocalDay(year: year, month: month, day: day)
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
