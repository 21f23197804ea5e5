import LaurelJSON

/// Reads a LOG's argument straight from its bytes, without building a JSON tree: LOG is most of what a server
/// reads, and parsing its object into a ``JSONObject`` and reading the fields out of it was some 8,000 instructions
/// of a LOG's 127,000 (docs/log-cost.md).
///
/// It takes only the shape nearly every LOG has: one flat object of LOG's own fields, each at most once; strings
/// of printable ASCII without escapes; `amount` a positive integer of at most nine digits; JSON's whitespace
/// between tokens; and every field valid by ``LogRequest``'s rules. Anything else (an escape, a non-ASCII byte,
/// another number form, an unknown or repeated field, a field that breaks a rule) gives nil, and the line is read
/// the general way, by the JSON parser and ``LogRequest/init(argument:)``, which report what is wrong. So what it
/// returns is always what the general way returns (`LogArgumentScannerTests` compares the two).
enum LogArgumentScanner {
    /// The request `argument` (the bytes from the object's `{` to the line's end) holds, or nil when it is not of the
    /// shape above.
    static func scan(_ argument: UnsafeBufferPointer<UInt8>) -> LogRequest? {
        var reader = JSONByteCursor(bytes: argument)
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        var activity: UnsafeBufferPointer<UInt8>?
        var amount: Int?
        var at: UnsafeBufferPointer<UInt8>?
        var id: UnsafeBufferPointer<UInt8>?
        var note: UnsafeBufferPointer<UInt8>?
        reader.skipWhitespace()
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                reader.skipWhitespace()
                guard let key = reader.plainString() else { return nil }
                reader.skipWhitespace()
                guard reader.take(UInt8(ascii: ":")) else { return nil }
                reader.skipWhitespace()
                switch Field(key) {
                case .activity?: guard reader.plainText(into: &activity) else { return nil }
                case .amount?:
                    guard amount == nil, let value = reader.positiveInteger() else { return nil }
                    amount = value
                case .at?: guard reader.plainText(into: &at) else { return nil }
                case .id?: guard reader.plainText(into: &id) else { return nil }
                case .note?: guard reader.plainText(into: &note) else { return nil }
                case nil: return nil
                }
                reader.skipWhitespace()
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        reader.skipWhitespace()
        guard reader.atEnd else { return nil }
        return LogRequest(scannedActivity: activity, amount: amount, at: at, id: id, note: note)
    }

    private enum Field {
        case activity, amount, at, id, note

        init?(_ name: UnsafeBufferPointer<UInt8>) {
            func named(_ field: StaticString) -> Bool { field.withUTF8Buffer { name.elementsEqual($0) } }
            if named("activity") {
                self = .activity
            } else if named("amount") {
                self = .amount
            } else if named("at") {
                self = .at
            } else if named("id") {
                self = .id
            } else if named("note") {
                self = .note
            } else {
                return nil
            }
        }
    }

}

/// What a LOG's argument is read with, beyond the cursor's own.
extension JSONByteCursor {
    /// A string's bytes between its quotes, when all are printable ASCII other than `"` and `\`.
    fileprivate mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<(offset - 1)])
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            offset += 1
        }
        return nil
    }

    /// A plain string's bytes (``plainString()``) into `slot`, which must be empty (a field given twice is not
    /// plain). No `String` yet: the field's rule makes it once, from what it keeps.
    fileprivate mutating func plainText(into slot: inout UnsafeBufferPointer<UInt8>?) -> Bool {
        guard slot == nil, let value = plainString() else { return false }
        slot = value
        return true
    }

    /// An integer of one to nine digits without a leading zero, sign, fraction or exponent.
    fileprivate mutating func positiveInteger() -> Int? {
        let start = offset
        guard let value = digits(atMost: 9), bytes[start] != UInt8(ascii: "0") else { return nil }
        // A number JSON writes on (a fraction or an exponent) is not an integer here.
        if offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        return Int(value)
    }
}
