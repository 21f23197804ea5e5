/// A strict RFC 8259 JSON parser working directly on UTF-8 bytes.
///
/// It accepts exactly one value surrounded by optional whitespace and rejects everything the RFC does not
/// allow: trailing commas, comments, single quotes, `NaN`, leading zeros, unescaped control characters,
/// invalid UTF-8 and lone surrogates. It also rejects duplicate object keys and numbers too large for a
/// `Double`, and refuses to nest arrays and objects deeper than ``maximumDepth``, so hostile input cannot
/// exhaust the stack.
public enum JSONParser {
    /// The deepest nesting of arrays and objects accepted; a 65th level is an error.
    public static let maximumDepth = 64

    /// Parses a complete JSON document.
    /// - Parameter bytes: UTF-8 encoded JSON text.
    /// - Returns: The single value the document holds.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        if let result = bytes.withContiguousStorageIfAvailable(parseDocument) {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer(parseDocument).get()
    }

    /// Parses a complete JSON document in `bytes` (the request parser's case: no generic detour through the
    /// collection's storage).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        try parseDocument(bytes).get()
    }

    /// Parses a complete JSON document given as text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8(parseDocument).get()
    }

    private static func parseDocument(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        do throws(JSONParseError) {
            var parser = JSONByteParser(bytes: bytes)
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }
}

/// The recursive-descent parser behind ``JSONParser``; one instance parses one document.
struct JSONByteParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if position < bytes.count {
            throw error("unexpected data after the value")
        }
        return value
    }

    // MARK: Values

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else {
            throw error("unexpected end of input, expected a value")
        }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character, expected a value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else {
            throw error("invalid literal")
        }
        let literalBytes = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where bytes[position + offset] != literalBytes[offset] {
            throw error("invalid literal")
        }
        position += count
    }

    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        skipWhitespace()
        // An empty object allocates nothing; a request's object has a handful of members.
        var object = peek() == UInt8(ascii: "}") ? JSONObject() : JSONObject(reservingCapacity: 6)
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(object)
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else {
                throw error("expected a string key")
            }
            let keyOffset = position
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw error("expected ':' after an object key")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue()
            guard object.insertIfAbsent(key: key, value: value) else {
                throw JSONParseError(offset: keyOffset, reason: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return .object(object)
            default:
                throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        // Room ahead for a short array (a commit in a notification is three numbers), grown from there.
        if peek() != UInt8(ascii: "]") { elements.reserveCapacity(4) }
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return .array(elements)
            default:
                throw error("expected ',' or ']' in an array")
            }
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        let negative = peek() == UInt8(ascii: "-")
        if negative {
            position += 1
        }
        // Accumulate the integer part as a negative number so `Int.min` fits; overflow falls back to Double.
        var accumulator = 0
        var fitsInInt = true
        guard let first = peek(), isDigit(first) else {
            throw error("expected a digit")
        }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), isDigit(next) {
                throw error("leading zeros are not allowed")
            }
        } else {
            while let digit = peek(), isDigit(digit) {
                if fitsInInt {
                    let (shifted, overflow1) = accumulator.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = shifted.subtractingReportingOverflow(Int(digit &- UInt8(ascii: "0")))
                    if overflow1 || overflow2 {
                        fitsInInt = false
                    } else {
                        accumulator = sum
                    }
                }
                position += 1
            }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            try skipDigits(after: "'.'")
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") {
                position += 1
            }
            try skipDigits(after: "the exponent")
        }
        if isInteger && fitsInInt {
            if negative {
                return .int(accumulator)
            }
            if accumulator != Int.min {
                return .int(-accumulator)
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(offset: start, reason: "number out of range")
        }
        return .double(value)
    }

    private mutating func skipDigits(after what: String) throws(JSONParseError) {
        guard let first = peek(), isDigit(first) else {
            throw error("expected a digit after \(what)")
        }
        position += 1
        while let digit = peek(), isDigit(digit) {
            position += 1
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Basics

    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    func error(_ reason: String) -> JSONParseError {
        JSONParseError(offset: position, reason: reason)
    }
}
