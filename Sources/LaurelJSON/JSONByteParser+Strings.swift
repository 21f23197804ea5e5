extension JSONByteParser {
    /// Parses a string starting at its opening quote. Unescaped runs are validated as UTF-8 in place and
    /// copied once; escapes switch to building the bytes in a scratch array.
    mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        let start = position
        var decoded: [UInt8]? = nil
        var runStart = start
        while true {
            if try passUnescapedRun() == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
                position += 1
                if var decoded {
                    decoded.append(contentsOf: run)
                    return String(decoding: decoded, as: UTF8.self)
                }
                return String(decoding: run, as: UTF8.self)
            }
            if decoded == nil {
                decoded = []
                decoded!.reserveCapacity(position - start + 16)
            }
            decoded!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
            try parseEscape(into: &decoded!)
            runStart = position
        }
    }

    /// Passes over a string starting at its opening quote, checked as ``parseString()`` checks it but made into
    /// nothing: a reader that skips a value had built a `String` of every string in it. A string with an escape
    /// (rare in what is skipped) is parsed whole instead.
    mutating func skipString() throws(JSONParseError) {
        let quote = position
        position += 1
        guard try passUnescapedRun() == UInt8(ascii: "\"") else {
            position = quote
            _ = try parseString()
            return
        }
        position += 1
    }

    /// Moves over text that needs no unescaping, checking its UTF-8 and that it holds no control character, to the
    /// next quote or backslash, and returns which of the two it stopped at.
    @inline(__always)
    private mutating func passUnescapedRun() throws(JSONParseError) -> UInt8 {
        while true {
            guard position < bytes.count else {
                throw error("unterminated string")
            }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                return byte
            case 0..<0x20:
                throw error("unescaped control character in a string")
            case 0x20..<0x80:
                position += 1
            default:
                try skipMultiByteScalar()
            }
        }
    }

    private mutating func parseEscape(into output: inout [UInt8]) throws(JSONParseError) {
        position += 1
        guard let escaped = peek() else {
            throw error("unterminated escape")
        }
        position += 1
        switch escaped {
        case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): output.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            let escapeStart = position - 2
            let unit = try parseHexQuad()
            var scalarValue = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                guard bytes.count - position >= 6,
                    bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else {
                    throw JSONParseError(offset: escapeStart, reason: "high surrogate without a low surrogate")
                }
                position += 2
                let low = try parseHexQuad()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONParseError(offset: escapeStart, reason: "high surrogate without a low surrogate")
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw JSONParseError(offset: escapeStart, reason: "lone low surrogate")
            }
            appendUTF8(of: scalarValue, to: &output)
        default:
            throw JSONParseError(offset: position - 2, reason: "invalid escape")
        }
    }

    private mutating func parseHexQuad() throws(JSONParseError) -> UInt16 {
        guard bytes.count - position >= 4 else {
            throw error("incomplete \\u escape")
        }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private func appendUTF8(of scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(0xC0 | UInt8(scalar >> 6))
            output.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(0xE0 | UInt8(scalar >> 12))
            output.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        default:
            output.append(0xF0 | UInt8(scalar >> 18))
            output.append(0x80 | UInt8((scalar >> 12) & 0x3F))
            output.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// Validates one multi-byte UTF-8 sequence (RFC 3629 table 4: no overlong forms, no surrogates,
    /// nothing above U+10FFFF) and moves past it.
    private mutating func skipMultiByteScalar() throws(JSONParseError) {
        let lead = bytes[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw error("invalid UTF-8")
        }
        guard bytes.count - position >= length, secondRange.contains(bytes[position + 1]) else {
            throw error("invalid UTF-8")
        }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[position + offset]) {
            throw error("invalid UTF-8")
        }
        position += length
    }
}
