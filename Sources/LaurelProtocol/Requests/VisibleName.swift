import Foundation

/// A name as people read it, so that a look-alike cannot pass for another name: compatibility forms become their
/// plain letters (NFKC: full-width `Ｐｕｓｈｕｐｓ` is `Pushups`, the ligature `ﬁ` is `fi`), and a name holding an
/// invisible character (a zero-width space or joiner between letters, a direction mark, a soft hyphen, a Hangul
/// filler) is refused rather than cleaned, since the client meant something the user cannot see. Emoji keep the
/// invisible parts they are made of: a joiner between two emoji, a variation selector or a skin tone after one,
/// and the tag characters of a subdivision flag.
struct VisibleName: Sendable, Equatable {
    let text: String

    init?(_ raw: String) {
        // Nearly every name is ASCII, which NFKC leaves alone and which has no invisible characters but controls
        // (refused by the length and control checks that follow).
        if raw.utf8.allSatisfy({ $0 < 0x80 }) {
            text = raw
            return
        }
        let normalized = raw.precomposedStringWithCompatibilityMapping
        let scalars = Array(normalized.unicodeScalars)
        for index in scalars.indices where Self.isInvisible(scalars[index]) {
            guard Self.isPartOfEmoji(at: index, in: scalars) else { return nil }
        }
        text = normalized
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .format
    }

    private static func isPartOfEmoji(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard index > 0 else { return false }
        let scalar = scalars[index], previous = scalars[index - 1]
        switch scalar.value {
        case 0x200D:  // zero-width joiner: between two emoji (the first possibly with its selector or skin tone)
            guard index + 1 < scalars.count else { return false }
            return isEmojiPart(previous) && isPictographic(scalars[index + 1])
        case 0xFE0E, 0xFE0F:  // text or emoji presentation of the emoji before
            return previous.properties.isEmoji
        case 0xE0020...0xE007F:  // tags of a subdivision flag: after the black flag or another tag
            return previous.value == 0x1F3F4 || (0xE0020...0xE007F).contains(previous.value)
        default:
            return false
        }
    }

    /// An emoji or what may follow one inside a sequence (a selector, a skin tone).
    private static func isEmojiPart(_ scalar: Unicode.Scalar) -> Bool {
        isPictographic(scalar) || scalar.value == 0xFE0F || scalar.properties.isEmojiModifier
    }

    /// An emoji picture; digits, `#` and `*` have the emoji property too (for keycaps) but are letters here.
    private static func isPictographic(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && scalar.properties.isEmoji
    }
}
