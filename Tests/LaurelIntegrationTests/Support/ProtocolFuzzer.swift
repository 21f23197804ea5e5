import LaurelTestSupport

/// Request lines for the protocol fuzz test, from a seed: the same seed gives the same lines. Most are hostile
/// (random bytes and invalid UTF-8, malformed tags and verbs, JSON nested thousands deep, duplicate keys, wrong
/// types, numbers out of range, look-alike names, over-long lines); some are well formed, so the fuzzing reaches
/// the handlers and the database. None is `QUIT` (it would end the connection); no line holds an LF.
struct ProtocolFuzzer {
    private var random: SeededRandom
    private var serial = 0

    static let verbs = [
        "AUTH", "PING", "ACTIVITIES", "ACTIVITY.CREATE", "ACTIVITY.DELETE", "ACTIVITY.RESTORE", "LOG", "LOG.DELETE", "LOGS",
        "LESSON.DONE", "EVENT", "REMINDER", "ACHIEVEMENTS", "ACHIEVEMENT", "PROFILE", "CHALLENGES", "SETTINGS", "NOTIFICATIONS",
        "SUBSCRIPTION", "TRIAL.START", "PRESETS", "TEMPLATES", "TEMPLATE.CREATE", "TEMPLATE.UPDATE", "TEMPLATE.DELETE",
        "TEMPLATE.EXPORT", "TEMPLATE.IMPORT", "ACCOUNT.EXPORT", "ACCOUNT.DELETE", "TEMPLATE.PUBLISH", "TEMPLATE.UNPUBLISH",
        "TEMPLATE.INSTALL", "MARKET",
    ]
    static let fields = [
        "activity", "amount", "at", "id", "note", "name", "unit", "icon", "token", "resume_after", "after", "limit",
        "before", "day", "include_hidden", "include_deleted", "category", "time_zone", "rest_day", "daily_goal", "tiers",
        "target", "type", "preset", "confirm", "lesson", "event", "template", "document", "window", "tier", "label",
        "weekly_goal", "reminder_window_minutes", "listing_id", "description", "sort", "explain",
    ]
    static let strings = [
        "pushups", "squats", "Plank", "Ｐｕｓｈｕｐｓ", "\u{200B}pushups", "push\u{200D}ups", "yoga 🧘\u{200D}♀\u{FE0F}", "",
        " ", "日本語", "\u{202E}evil", "Europe/Berlin", "UTC", "Mars/Olympus", "2026-11-24T10:00:00Z", "2026-02-30",
        "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "yesterday", "reps", "seconds", "minutes", "meters", "count",
        "\\u0000", "\\ud800", "\\udfff\\ud800", "O'Brien \\\"x\\\"", "first_exercise", "share", "breathing-101", "-1",
    ]

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// The next line, without its LF, and the verb it was meant to carry (nil for lines without one).
    mutating func next() -> (bytes: [UInt8], verb: String?) {
        while true {
            let line = make()
            if !Self.isQuit(line.bytes) { return line }
        }
    }

    private mutating func make() -> (bytes: [UInt8], verb: String?) {
        serial += 1
        let tag = "f\(serial)"
        switch random.below(100) {
        case 0..<12:
            return (randomBytes(count: random.below(200)), nil)
        case 12..<18:
            // A malformed tag or verb, or a line of one word.
            let heads = ["", " ", "*", "toolongtag\(String(repeating: "x", count: 40))", "t\u{7}g", "tag", "tag  PING", "tag ping{}"]
            return (Array(heads[random.below(heads.count)].utf8) + randomBytes(count: random.below(6)), nil)
        case 18..<24:
            let verb = pick(Self.verbs)
            return (Array("\(tag) \(verb) ".utf8) + deepNesting(), verb)
        case 24..<28:
            // Over max_line (the fuzz server's is 4096 bytes), sometimes far over.
            let verb = pick(Self.verbs)
            let length = random.below(4) == 0 ? 70_000 : 4_000 + random.below(600)
            return (Array("\(tag) \(verb) {\"note\":\"".utf8) + Array(repeating: UInt8(ascii: "n"), count: length) + Array("\"}".utf8), verb)
        case 28..<36:
            // The argument is broken, not the tag: an answer's tag must name the line it answers.
            let verb = pick(Self.verbs).lowercased()
            var argument = jsonObject(depth: 0)
            mutate(&argument)
            return (Array("\(tag) \(verb) \(argument)".utf8), verb.uppercased())
        default:
            let verb = pick(Self.verbs)
            let argument = random.below(8) == 0 ? "" : " " + jsonObject(depth: 0)
            return (Array("\(tag) \(verb)\(argument)".utf8), verb)
        }
    }

    private static func isQuit(_ line: [UInt8]) -> Bool {
        // The server drops a CR before the LF.
        let bytes = line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : line
        let words = bytes.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count >= 2 else { return false }
        return String(decoding: words[1], as: UTF8.self).uppercased() == "QUIT"
    }

    private mutating func randomBytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in
            let byte = UInt8(truncatingIfNeeded: random.next())
            return byte == UInt8(ascii: "\n") ? UInt8(ascii: "?") : byte
        }
    }

    private mutating func deepNesting() -> [UInt8] {
        let depth = 1 + random.below(40_000)
        let (open, close): (UInt8, UInt8) = random.below(2) == 0 ? (UInt8(ascii: "["), UInt8(ascii: "]")) : (UInt8(ascii: "{"), UInt8(ascii: "}"))
        if open == UInt8(ascii: "{") {
            return Array(repeating: Array("{\"a\":".utf8), count: depth).flatMap { $0 } + Array("1".utf8) + Array(repeating: close, count: depth)
        }
        return Array(repeating: open, count: depth) + Array(repeating: close, count: random.below(2) == 0 ? depth : depth / 2)
    }

    private mutating func jsonObject(depth: Int) -> String {
        let count = random.below(5)
        var members: [String] = []
        for _ in 0..<count {
            let key = random.below(10) == 0 ? jsonString() : "\"\(pick(Self.fields))\""
            members.append("\(key):\(jsonValue(depth: depth + 1))")
        }
        // Duplicate keys now and then.
        if let first = members.first, random.below(6) == 0 { members.append(first) }
        return "{" + members.joined(separator: ",") + "}"
    }

    private mutating func jsonValue(depth: Int) -> String {
        switch random.below(depth > 3 ? 8 : 10) {
        case 0: return "null"
        case 1: return random.below(2) == 0 ? "true" : "false"
        case 2: return pick(["0", "1", "-1", "100000", "100001", "1e300", "-0", "1.5", "9223372036854775808", "2147483648", "0.0000001"])
        case 3: return String(random.below(200_000) - 50_000)
        case 4, 5, 6: return jsonString()
        case 7: return "\"\(pick(Self.strings))\(random.below(3) == 0 ? String(random.below(1000)) : "")\""
        case 8: return "[" + (0..<random.below(4)).map { _ in jsonValue(depth: depth + 1) }.joined(separator: ",") + "]"
        default: return jsonObject(depth: depth)
        }
    }

    private mutating func jsonString() -> String {
        if random.below(3) == 0 { return "\"\(pick(Self.strings))\"" }
        let scalars = (0..<random.below(20)).map { _ -> String in
            switch random.below(10) {
            case 0: return "\\u\(String(random.below(0x10000), radix: 16).leftPadded(to: 4))"
            case 1: return "\\\""
            case 2: return pick(["\u{0301}", "\u{FE0F}", "\u{200D}", "🏋", "ß", "İ", "\u{FFFD}", "\u{10FFFF}"])
            default: return String(UnicodeScalar(UInt8(32 + random.below(95))))
            }
        }
        return "\"" + scalars.joined().replacingBackslashAtEnd() + "\""
    }

    /// Breaks a well-formed line now and then: cuts it, drops or doubles a byte, adds trailing junk.
    private mutating func mutate(_ text: inout String) {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return }
        switch random.below(5) {
        case 0: bytes = Array(bytes.prefix(random.below(bytes.count)))
        case 1: bytes.remove(at: random.below(bytes.count))
        case 2: bytes.insert(bytes[random.below(bytes.count)], at: random.below(bytes.count))
        case 3: bytes += Array(pick([" ", " x", "}", "\u{0}", "\r", " {}"]).utf8)
        default: bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next()) & 0x7F | 0x01
        }
        bytes.removeAll { $0 == UInt8(ascii: "\n") }
        text = String(decoding: bytes, as: UTF8.self)
    }

    private mutating func pick<T>(_ values: [T]) -> T {
        values[random.below(values.count)]
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }

    /// A string that ends in a lone backslash would escape its closing quote.
    func replacingBackslashAtEnd() -> String {
        hasSuffix("\\") && !hasSuffix("\\\\") ? self + "\\" : self
    }
}
