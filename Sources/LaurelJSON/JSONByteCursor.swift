/// A cursor over JSON text's bytes, for a reader that takes a known shape straight from its bytes without building a
/// tree (a LOG's argument): it gives up (and leaves the text to ``JSONParser``) at the first byte it does not expect.
/// ``JSONReader`` is the checked way through a document of any shape.
public struct JSONByteCursor {
    public let bytes: UnsafeBufferPointer<UInt8>
    public var offset = 0

    @inlinable
    public init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    @inlinable
    public var atEnd: Bool { offset == bytes.count }

    /// Takes `byte` if the text goes on with it.
    @inlinable
    public mutating func take(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    /// Takes `literal` if the text goes on with it.
    @inlinable
    public mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - offset >= count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[offset + $0] == expected[$0] }
        }
        if matches { offset += count }
        return matches
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    @inlinable
    public mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    /// A run of one to `atMost` decimal digits, as a number; nil (the cursor anywhere in the run) when there is none
    /// or it is longer. The readers' integers are built on it, each with its own rules for what may surround it.
    @inlinable
    public mutating func digits(atMost limit: Int) -> Int64? {
        let start = offset
        var value: Int64 = 0
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
            guard offset - start < limit else { return nil }
            value = value * 10 + Int64(bytes[offset] - UInt8(ascii: "0"))
            offset += 1
        }
        return offset > start ? value : nil
    }

    /// Passes over one JSON value (a scalar up to the `,`, `]` or `}` after it; an object or an array to its matching
    /// bracket, strings and their escapes included) without reading it. False if the text ends first.
    public mutating func skipValue() -> Bool {
        var depth = 0
        let start = offset
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "\""):
                offset += 1
                while offset < bytes.count, bytes[offset] != UInt8(ascii: "\"") {
                    offset += bytes[offset] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard offset < bytes.count else { return false }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { return offset > start }
                depth -= 1
                if depth == 0 {
                    offset += 1
                    return true
                }
            case UInt8(ascii: ","):
                if depth == 0 { return offset > start }
            default:
                break
            }
            offset += 1
        }
        return false
    }
}
