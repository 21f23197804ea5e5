/// How a string field is checked: trimming, length in Unicode scalars (as PostgreSQL counts characters)
/// and which control characters it may hold.
struct TextRule: Sendable {
    var trimsWhitespace: Bool
    var length: ClosedRange<Int>
    /// Tabs and line breaks are allowed (free text such as notes); other control characters never are,
    /// which also keeps NUL out of PostgreSQL text.
    var allowsLineBreaks: Bool = false
    /// A name people read (see ``VisibleName``): NFKC-normalised, and refused when it holds invisible characters.
    var isVisibleName: Bool = false
    var description: String

    /// Names the user chooses (activities, templates, tiers, events, lessons): rules.md "Names".
    static let name = TextRule(
        trimsWhitespace: true, length: 1...64, isVisibleName: true, description: "a name of 1 to 64 visible characters")
    /// A reference to an activity by id or name: ids may be longer than names. Normalised as names are, so that
    /// `Ｐｕｓｈｕｐｓ` finds `pushups`.
    static let activityReference = TextRule(
        trimsWhitespace: true, length: 1...128, isVisibleName: true,
        description: "an activity id or name of 1 to 128 visible characters")
    /// Opaque ids: log ids (idempotency keys), achievement, template and cursor ids.
    static let identifier = TextRule(trimsWhitespace: false, length: 1...128, description: "an id of 1 to 128 characters")
    /// Icon names (a slug or an emoji).
    static let icon = TextRule(trimsWhitespace: true, length: 1...64, description: "an icon of 1 to 64 characters")
    /// A marketplace listing's description: normalised and checked as names are, up to 280 characters.
    static let listingDescription = TextRule(
        trimsWhitespace: true, length: 1...280, isVisibleName: true, description: "a description of at most 280 visible characters")
    /// A log's free-text note.
    static let note = TextRule(
        trimsWhitespace: false, length: 0...1000, allowsLineBreaks: true, description: "a note of at most 1000 characters")
    /// An access token; tokens are issued by the server and much shorter than this bound.
    static let token = TextRule(trimsWhitespace: false, length: 1...256, description: "a token of 1 to 256 characters")
    /// An IANA time zone name; the longest in use are about 30 characters. Whether the zone exists is checked later.
    static let timeZone = TextRule(
        trimsWhitespace: false, length: 1...64, description: "a time zone name of 1 to 64 characters")
    /// An invite code as a user typed it: whether it is one is checked later (an impossible code is merely unknown).
    static let inviteCode = TextRule(trimsWhitespace: true, length: 1...64, description: "an invite code of 1 to 64 characters")
    /// The user's name typed to confirm ACCOUNT.DELETE; compared exactly, so not trimmed.
    static let confirmation = TextRule(trimsWhitespace: false, length: 1...128, description: "the user name")

    /// The checked (and possibly trimmed) text, or `nil` if it breaks the rule.
    func apply(to text: String) -> String? {
        if isVisibleName {
            guard let name = VisibleName(text) else { return nil }
            return applyLimits(to: name.text)
        }
        return applyLimits(to: text)
    }

    /// The same for text known to be printable ASCII (bytes 0x20 to 0x7E, as ``LogArgumentScanner`` reads a LOG's
    /// strings): NFKC leaves it alone, it holds no control or invisible character, and a space is its only
    /// whitespace, so what is left of the rule is trimming spaces and the length; the `String` is made once, from the
    /// bytes kept.
    func apply(toPrintableASCII bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var (start, end) = (0, bytes.count)
        if trimsWhitespace {
            while start < end, bytes[start] == 0x20 { start += 1 }
            while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        }
        guard length.contains(end - start) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    private func applyLimits(to text: String) -> String? {
        switch asciiLimits(text) {
        case .kept: return text
        case .trimmed(let trimmed): return trimmed
        case .broken: return nil
        case .notASCII: break
        }
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        if trimsWhitespace {
            while start < end, Self.isWhitespace(scalars[start]) {
                scalars.formIndex(after: &start)
            }
            while end > start, Self.isWhitespace(scalars[scalars.index(before: end)]) {
                scalars.formIndex(before: &end)
            }
        }
        let kept = scalars[start..<end]
        var count = 0
        for scalar in kept {
            count += 1
            if Self.isControl(scalar) {
                let isLineBreak = scalar == "\t" || scalar == "\n" || scalar == "\r"
                guard allowsLineBreaks && isLineBreak else { return nil }
            }
        }
        guard length.contains(count) else {
            return nil
        }
        return start == scalars.startIndex && end == scalars.endIndex ? text : String(kept)
    }

    private enum ASCIIOutcome {
        case kept, trimmed(String), broken, notASCII
    }

    /// The same rule decided on the bytes of ASCII text (nearly all text a request holds: ids, activities, days),
    /// where a byte is a scalar: a walk over the scalars of every field costs more than the rest of a LOG's parsing.
    private func asciiLimits(_ text: String) -> ASCIIOutcome {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return .notASCII }
            var (start, end) = (0, bytes.count)
            if trimsWhitespace {
                while start < end, Self.isASCIIWhitespace(bytes[start]) { start += 1 }
                while end > start, Self.isASCIIWhitespace(bytes[end - 1]) { end -= 1 }
            }
            for byte in bytes[start..<end] where Self.isASCIIControl(byte) {
                guard allowsLineBreaks && (byte == 0x09 || byte == 0x0A || byte == 0x0D) else { return .broken }
            }
            guard length.contains(end - start) else { return .broken }
            guard start > 0 || end < bytes.count else { return .kept }
            return .trimmed(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        }
    }

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    private static func isASCIIControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }

    // Property lookups are costly and nearly all text is ASCII, so ASCII is decided without them.

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return isASCIIWhitespace(UInt8(scalar.value))
        }
        return scalar.properties.isWhitespace
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return isASCIIControl(UInt8(scalar.value))
        }
        return scalar.properties.generalCategory == .control
    }
}
