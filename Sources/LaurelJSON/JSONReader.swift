/// Reads one JSON document value by value, for readers of a known shape that would otherwise build a ``JSONValue``
/// tree only to take it apart (a notification of other instances' writes: each of its announced changes made some
/// sixty values of a tree, parsed, read once and freed). As strict as ``JSONParser``: its strings, numbers and
/// literals are the parser's own, and a value read whole (``value()``) is parsed by it.
///
/// A reader walks containers itself: ``beginObject()`` and then ``nextKey()`` until it returns nil, each key followed
/// by reading (or skipping) its value; ``beginArray()`` and ``nextElement()`` likewise. Keys are not checked for
/// duplicates: a reader of a known shape takes the last.
public struct JSONReader {
    private var parser: JSONByteParser
    /// Bit `d` is set once the container at depth `d` has had a member or an element: the next one needs a comma.
    private var started: UInt64 = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        parser = JSONByteParser(bytes: bytes)
    }

    /// Runs `body` with a reader at the start of `text`, and checks that the body read the whole document.
    public static func read<T>(_ text: String, _ body: (inout JSONReader) throws(JSONParseError) -> T) throws(JSONParseError) -> T {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(JSONParseError) -> T in try read(utf8: bytes, body) } }.get()
    }

    /// Runs `body` with a reader at the start of the UTF-8 text `bytes`, and checks that the body read the whole
    /// document.
    public static func read<T>(
        utf8 bytes: UnsafeBufferPointer<UInt8>, _ body: (inout JSONReader) throws(JSONParseError) -> T
    ) throws(JSONParseError) -> T {
        var reader = JSONReader(bytes: bytes)
        reader.parser.skipWhitespace()
        let result = try body(&reader)
        reader.parser.skipWhitespace()
        guard reader.parser.position == bytes.count else { throw reader.parser.error("unexpected data after the value") }
        return result
    }

    // MARK: Containers

    /// Takes the `{` of an object.
    public mutating func beginObject() throws(JSONParseError) {
        try begin(UInt8(ascii: "{"), "expected an object")
    }

    /// The next member's key (its value comes next), or nil at the object's end (taken).
    public mutating func nextKey() throws(JSONParseError) -> String? {
        try nextMember()?.string
    }

    /// The next member's key as it stands in the text (its value comes next), or nil at the object's end (taken):
    /// for a reader that matches it with the keys it knows (`case "xp":` in a switch) without making a string of it.
    /// It points into the text: valid only inside the body given to ``read(_:_:)``.
    public mutating func nextMember() throws(JSONParseError) -> JSONKey? {
        guard try next(closing: UInt8(ascii: "}")) else { return nil }
        guard parser.peek() == UInt8(ascii: "\"") else { throw parser.error("expected a string key") }
        // Keys are nearly always plain ASCII: taken as they stand; one with an escape or another byte is decoded.
        let bytes = parser.bytes
        let start = parser.position + 1
        var end = start
        while end < bytes.count, (0x20..<0x80).contains(bytes[end]), bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") {
            end += 1
        }
        let key: JSONKey
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            key = JSONKey(text: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            parser.position = end + 1
        } else {
            key = JSONKey(decoded: try parser.parseString())
        }
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: ":") else { throw parser.error("expected ':' after an object key") }
        parser.position += 1
        parser.skipWhitespace()
        return key
    }

    /// Takes the `[` of an array.
    public mutating func beginArray() throws(JSONParseError) {
        try begin(UInt8(ascii: "["), "expected an array")
    }

    /// Takes the `{` of an object and returns true, or passes over a value of any other kind and returns false.
    public mutating func beginObjectIfPresent() throws(JSONParseError) -> Bool {
        guard parser.peek() == UInt8(ascii: "{") else { return try passedOver() ?? false }
        try beginObject()
        return true
    }

    /// Takes the `[` of an array and returns true, or passes over a value of any other kind and returns false.
    public mutating func beginArrayIfPresent() throws(JSONParseError) -> Bool {
        guard parser.peek() == UInt8(ascii: "[") else { return try passedOver() ?? false }
        try beginArray()
        return true
    }

    /// Whether another element follows (read it next); false at the array's end (taken).
    public mutating func nextElement() throws(JSONParseError) -> Bool {
        try next(closing: UInt8(ascii: "]"))
    }

    private mutating func begin(_ opening: UInt8, _ expected: String) throws(JSONParseError) {
        guard parser.peek() == opening else { throw parser.error(expected) }
        try parser.enterContainer()
        parser.position += 1
        parser.skipWhitespace()
        started &= ~(1 << UInt64(parser.depth))
    }

    /// Past the comma before the container's next member or element: true if there is one, false at its end.
    private mutating func next(closing: UInt8) throws(JSONParseError) -> Bool {
        parser.skipWhitespace()
        let bit: UInt64 = 1 << UInt64(parser.depth)
        if parser.peek() == closing {
            parser.position += 1
            parser.depth -= 1
            return false
        }
        if started & bit != 0 {
            guard parser.peek() == UInt8(ascii: ",") else {
                throw parser.error(closing == UInt8(ascii: "}") ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array")
            }
            parser.position += 1
            parser.skipWhitespace()
        }
        started |= bit
        return true
    }

    // MARK: Values

    // A value of another kind than the one asked for is passed over and read as nil: the reader of a shape tells a
    // member it cannot use from text that is not JSON, which throws.

    /// A string; nil for any other value.
    public mutating func string() throws(JSONParseError) -> String? {
        guard parser.peek() == UInt8(ascii: "\"") else { return try passedOver() }
        return try parser.parseString()
    }

    /// A whole number that fits in an `Int`; nil for any other value.
    public mutating func int() throws(JSONParseError) -> Int? {
        guard case .int(let value)? = try number() else { return nil }
        return value
    }

    /// A number, whole or not; nil for any other value.
    public mutating func double() throws(JSONParseError) -> Double? {
        switch try number() {
        case .int(let value)?: return Double(value)
        case .double(let value)?: return value
        default: return nil
        }
    }

    /// `true` or `false`; nil for any other value.
    public mutating func bool() throws(JSONParseError) -> Bool? {
        switch parser.peek() {
        case UInt8(ascii: "t"): try parser.expectLiteral("true"); return true
        case UInt8(ascii: "f"): try parser.expectLiteral("false"); return false
        default: return try passedOver()
        }
    }

    /// Takes a `null` if one comes next.
    public mutating func takeNull() throws(JSONParseError) -> Bool {
        guard parser.peek() == UInt8(ascii: "n") else { return false }
        try parser.expectLiteral("null")
        return true
    }

    /// The next value whole, as a tree: for the parts of a shape that other readers take as trees.
    public mutating func value() throws(JSONParseError) -> JSONValue {
        try parser.parseValue()
    }

    /// Passes over the next value, checked as JSON (keys repeated in an object aside) but built into nothing: a
    /// container is walked member by member, a scalar read and dropped.
    public mutating func skipValue() throws(JSONParseError) {
        switch parser.peek() {
        case UInt8(ascii: "{"):
            try beginObject()
            while try nextMember() != nil { try skipValue() }
        case UInt8(ascii: "["):
            try beginArray()
            while try nextElement() { try skipValue() }
        case UInt8(ascii: "\""):
            try parser.skipString()
        default:
            _ = try parser.parseValue()
        }
    }

    private mutating func number() throws(JSONParseError) -> JSONValue? {
        guard let first = parser.peek(), first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return try passedOver()
        }
        return try parser.parseNumber()
    }

    private mutating func passedOver<T>() throws(JSONParseError) -> T? {
        try skipValue()
        return nil
    }
}

/// An object member's key as ``JSONReader/nextMember()`` found it: matched with a known key by a switch's
/// `case "name":` (or `==`), or made a string (``string``) when the key is data (an id, a board's name).
public struct JSONKey {
    @usableFromInline let text: UnsafeBufferPointer<UInt8>
    @usableFromInline let decoded: String?

    init(text: UnsafeBufferPointer<UInt8>) {
        self.text = text
        decoded = nil
    }

    init(decoded: String) {
        text = UnsafeBufferPointer(start: nil, count: 0)
        self.decoded = decoded
    }

    /// The key as a string.
    public var string: String {
        decoded ?? String(decoding: text, as: UTF8.self)
    }

    /// Whether the key is `literal`. (Inlined where it is used, so that a switch's literals compare by their lengths
    /// first without a call.)
    @inlinable
    public static func == (key: JSONKey, literal: StaticString) -> Bool {
        if let decoded = key.decoded { return decoded == literal.description }
        let count = literal.utf8CodeUnitCount
        guard key.text.count == count else { return false }
        return literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { key.text[$0] == expected[$0] }
        }
    }

    /// A switch's match of a key with a literal.
    @inlinable
    public static func ~= (literal: StaticString, key: JSONKey) -> Bool {
        key == literal
    }
}
