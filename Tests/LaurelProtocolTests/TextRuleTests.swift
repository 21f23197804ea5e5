import LaurelTestSupport
import Testing
@testable import LaurelProtocol

/// ASCII text is checked on its bytes, anything else scalar by scalar; both must decide as the rule says.
@Suite struct TextRuleTests {
    @Test func asciiTextIsTrimmedCountedAndCheckedForControlCharacters() {
        #expect(TextRule.icon.apply(to: "  flame \t") == "flame")
        #expect(TextRule.icon.apply(to: "flame") == "flame")
        #expect(TextRule.icon.apply(to: "   ") == nil, "nothing left after trimming")
        #expect(TextRule.identifier.apply(to: " k-1 ") == " k-1 ", "ids are not trimmed")
        #expect(TextRule.identifier.apply(to: String(repeating: "a", count: 128)) != nil)
        #expect(TextRule.identifier.apply(to: String(repeating: "a", count: 129)) == nil)
        #expect(TextRule.identifier.apply(to: "a\u{7F}b") == nil)
        #expect(TextRule.identifier.apply(to: "a\nb") == nil)
        #expect(TextRule.note.apply(to: "line1\nline2\ttab\r") == "line1\nline2\ttab\r")
        #expect(TextRule.note.apply(to: "bell\u{07}") == nil)
        #expect(TextRule.note.apply(to: "") == "")
    }

    /// A LOG's strings read as printable ASCII take the rule's short way (`apply(toPrintableASCII:)`); it must decide
    /// as the whole rule does, spaces at either end and lengths at the limits included.
    @Test(arguments: 0..<20)
    func printableASCIITextDecidesAsTheWholeRule(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let rules: [TextRule] = [.name, .activityReference, .identifier, .icon, .note, .token, .timeZone, .inviteCode, .confirmation]
        for _ in 0..<200 {
            let count = [0, 1, 2, 63, 64, 65, 127, 128, 129, 1000, 1001].randomElement(using: &random)!
            var bytes = (0..<count).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
            if !bytes.isEmpty, Bool.random(using: &random) { bytes[0] = 0x20 }
            if !bytes.isEmpty, Bool.random(using: &random) { bytes[bytes.count - 1] = 0x20 }
            let text = String(decoding: bytes, as: UTF8.self)
            for rule in rules {
                let short = bytes.withUnsafeBufferPointer { rule.apply(toPrintableASCII: $0) }
                #expect(short == rule.apply(to: text), "\(rule.description), \(count) bytes, seed \(seed)")
            }
        }
    }

    @Test func otherTextCountsScalars() {
        #expect(TextRule.identifier.apply(to: String(repeating: "é", count: 128)) != nil)
        #expect(TextRule.identifier.apply(to: String(repeating: "é", count: 129)) == nil)
        #expect(TextRule.icon.apply(to: "\u{2003}🔥\u{00A0}") == "🔥", "Unicode whitespace is trimmed too")
        #expect(TextRule.note.apply(to: "é\u{85}") == nil, "a control character outside ASCII")
    }

    /// Random text from ASCII and other pieces against the rule written out scalar by scalar.
    @Test(arguments: 0..<20)
    func decidesAsTheRuleSays(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let pieces = ["a", "Z", "9", " ", "\t", "\n", "\r", "\u{0B}", "\u{07}", "\u{7F}", "-", "é", "🔥", "\u{2003}", "\u{85}"]
        for rule in [TextRule.icon, .identifier, .note, .token, .inviteCode] {
            for _ in 0..<200 {
                let asciiOnly = random.below(3) > 0
                let choices = asciiOnly ? Array(pieces.prefix(11)) : pieces
                let text = (0..<random.below(80)).map { _ in choices[random.below(choices.count)] }.joined()
                #expect(rule.apply(to: text) == Self.expected(rule, text), "\(rule.description): \(text.debugDescription)")
            }
        }
    }

    private static func expected(_ rule: TextRule, _ text: String) -> String? {
        var scalars = Array(text.unicodeScalars)
        if rule.trimsWhitespace {
            while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
            while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        }
        for scalar in scalars where scalar.properties.generalCategory == .control {
            guard rule.allowsLineBreaks, ["\t", "\n", "\r"].contains(scalar) else { return nil }
        }
        guard rule.length.contains(scalars.count) else { return nil }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars)
        return String(kept)
    }
}
