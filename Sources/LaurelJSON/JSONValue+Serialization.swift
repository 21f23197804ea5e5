extension JSONValue {
    /// The compact JSON text of the value: no whitespace, object members in insertion order,
    /// strings escaped per RFC 8259.
    ///
    /// Doubles are written in the shortest form that parses back to the same value, always with a
    /// fraction or exponent so they stay doubles when read again. JSON has no infinities or NaN;
    /// non-finite doubles are written as `null`.
    public func serialized() -> String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text of the value (see ``serialized()``) as UTF-8.
    public func write(into bytes: inout [UInt8]) {
        writeText(into: &bytes)
    }

    func writeText<Sink: JSONByteSink>(into bytes: inout Sink) {
        switch self {
        case .null:
            bytes.append(static: "null")
        case .bool(let value):
            bytes.append(static: value ? "true" : "false")
        case .int(let value):
            JSONTextWriter.writeInteger(value, into: &bytes)
        case .double(let value):
            if value.isFinite {
                bytes.append(text: value.description)
            } else {
                bytes.append(static: "null")
            }
        case .string(let value):
            JSONTextWriter.writeString(value, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 {
                    bytes.append(UInt8(ascii: ","))
                }
                element.writeText(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object {
                if !first {
                    bytes.append(UInt8(ascii: ","))
                }
                first = false
                JSONTextWriter.writeString(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.writeText(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}

/// The byte-level pieces of JSON output shared by ``JSONValue/write(into:)``.
enum JSONTextWriter {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func writeInteger<Sink: JSONByteSink>(_ value: Int, into bytes: inout Sink) {
        // Most numbers written are small (levels, streaks, counts, flags).
        if (0..<10).contains(value) {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        bytes.write(upTo: maximumIntegerLength) { end in writeDigits(of: value, at: end) }
    }

    /// The most bytes an `Int` takes: nineteen digits and a sign.
    static let maximumIntegerLength = 20

    /// Writes `value` in decimal at `start` (room for ``maximumIntegerLength`` bytes); returns how many it wrote.
    @inline(__always)
    static func writeDigits(of value: Int, at start: UnsafeMutablePointer<UInt8>) -> Int {
        if (0..<10).contains(value) {
            start.initialize(to: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return 1
        }
        // The length first (from the number's bit length), then the digits in place from the last back, two a
        // division (timestamps in microseconds have sixteen): nothing is moved after. Working on the magnitude as
        // UInt means Int.min needs no special case.
        var magnitude = value.magnitude
        var length = decimalLength(ofNonZero: magnitude)
        if value < 0 {
            start.initialize(to: UInt8(ascii: "-"))
            length &+= 1
        }
        var place = length
        while magnitude >= 100 {
            let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
            magnitude /= 100
            place &-= 2
            start[place] = twoDigits[pair]
            start[place &+ 1] = twoDigits[pair &+ 1]
        }
        if magnitude >= 10 {
            let pair = Int(truncatingIfNeeded: magnitude) &* 2
            start[place &- 2] = twoDigits[pair]
            start[place &- 1] = twoDigits[pair &+ 1]
        } else {
            start[place &- 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        return length
    }

    /// How many decimal digits a magnitude other than zero has. A number of b bits has ⌊b·log₁₀2⌋ digits or one
    /// more (1233/4096 is log₁₀2 from below), and a power of ten tells which.
    @inline(__always)
    static func decimalLength(ofNonZero magnitude: UInt) -> Int {
        let estimate = ((UInt.bitWidth &- magnitude.leadingZeroBitCount) &* 1233) >> 12
        return magnitude >= powersOfTen[estimate] ? estimate &+ 1 : estimate
    }

    /// 10⁰ through 10¹⁹, the largest power of ten a UInt holds (written out, so that the array is made when the
    /// program is built, not at its first read).
    private static let powersOfTen: [UInt] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// "00" through "99", two bytes a pair: text in the binary, read through its address (an array made at run time is
    /// reached through its lazy initialization's check at every read, twice a pair of digits).
    private static var twoDigits: UnsafePointer<UInt8> { twoDigitsText.utf8Start }
    private static let twoDigitsText: StaticString = """
        00010203040506070809\
        10111213141516171819\
        20212223242526272829\
        30313233343536373839\
        40414243444546474849\
        50515253545556575859\
        60616263646566676869\
        70717273747576777879\
        80818283848586878889\
        90919293949596979899
        """

    /// Whether a byte of a string is written escaped: control characters, the quote and the backslash.
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of `bytes` is written escaped, looked at eight at a time: nearly every string written (an id, a
    /// name) has none, and a byte at a time was a compare and a branch for each of its thirty-odd bytes.
    static func anyNeedsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(start)
        var offset = 0
        while offset &+ 8 <= bytes.count {
            if wordNeedsEscape(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset &+= 8
        }
        while offset < bytes.count {
            if needsEscape(start[offset]) { return true }
            offset &+= 1
        }
        return false
    }

    /// Whether one of the eight bytes of `word` is below 0x20, a quote or a backslash. A byte below `n` (at most
    /// 0x80) sets its high bit in `(word - n·ones) & ~word & highs`, and a zero byte (after an XOR with the quote or
    /// the backslash) likewise with `n` = 1; a borrow can set a bit above a byte that matched, never where none did,
    /// so the answer "some byte" is exact.
    @inline(__always)
    private static func wordNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let quotes = (quote &- ones) & ~quote, backslashes = (backslash &- ones) & ~backslash
        return (control | quotes | backslashes) & highs != 0
    }

    static func writeString<Sink: JSONByteSink>(_ string: String, after prefix: StaticString = "", into bytes: inout Sink) {
        bytes.append(UInt8(ascii: "\""))
        if prefix.utf8CodeUnitCount > 0 { bytes.append(static: prefix) }
        var string = string
        string.withUTF8 { utf8 in
            // Most strings (ids, days, names) need no escape: one look, one copy.
            guard anyNeedsEscape(utf8) else {
                bytes.append(contentsOf: utf8)
                return
            }
            var escapes = 0
            for byte in utf8 where needsEscape(byte) { escapes &+= 1 }
            // A string with escapes is mostly JSON text itself (a push's data in an announcement): a quote every few
            // bytes. Copied run by run, each run and each escape was an append of its own (some 100 instructions);
            // written byte by byte into room for the longest it can be (an escape takes at most six bytes), it is a
            // few instructions a byte.
            bytes.write(upTo: utf8.count &+ 5 &* escapes) { start in
                var written = 0
                for byte in utf8 {
                    guard needsEscape(byte) else {
                        start[written] = byte
                        written &+= 1
                        continue
                    }
                    start[written] = UInt8(ascii: "\\")
                    let shortForm: UInt8? = switch byte {
                    case UInt8(ascii: "\""): UInt8(ascii: "\"")
                    case UInt8(ascii: "\\"): UInt8(ascii: "\\")
                    case 0x0A: UInt8(ascii: "n")
                    case 0x0D: UInt8(ascii: "r")
                    case 0x09: UInt8(ascii: "t")
                    case 0x08: UInt8(ascii: "b")
                    case 0x0C: UInt8(ascii: "f")
                    default: nil
                    }
                    if let shortForm {
                        start[written &+ 1] = shortForm
                        written &+= 2
                    } else {
                        start[written &+ 1] = UInt8(ascii: "u")
                        start[written &+ 2] = UInt8(ascii: "0")
                        start[written &+ 3] = UInt8(ascii: "0")
                        start[written &+ 4] = hexDigits[Int(byte >> 4)]
                        start[written &+ 5] = hexDigits[Int(byte & 0x0F)]
                        written &+= 6
                    }
                }
                return written
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
