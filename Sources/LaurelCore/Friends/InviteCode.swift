import Foundation

/// An invite code (rules.md, "Friends and leaderboards"): 8 characters from an alphabet without look-alikes (no 0/O,
/// 1/I/L), valid for 7 days, used once; a user has at most 20 open at a time.
public struct InviteCode: Hashable, Sendable, CustomStringConvertible {
    public static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    public static let length = 8
    /// How long a code stays open.
    public static let validity: TimeInterval = 7 * 86_400
    /// Open codes a user may hold at once; one more is `too_large`.
    public static let maximumOpen = 20

    public let text: String

    /// A code as a user typed it; nil when it cannot be one (wrong length or a character outside the alphabet).
    public init?(_ text: String) {
        guard text.count == Self.length, text.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        self.text = text
    }

    /// A new code drawn at random: 31^8 (about 8.5 × 10^11) codes, so guessing an open one is hopeless.
    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> InviteCode {
        InviteCode(unchecked: String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
    }

    public static func random() -> InviteCode {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    private init(unchecked text: String) {
        self.text = text
    }

    /// When a code made at `created` stops being open.
    public static func expiry(ofCodeMadeAt created: Date) -> Date {
        created.addingTimeInterval(validity)
    }

    /// The idempotency key of the inviter's `invite` event for this code: one event per accepted code, however often
    /// recording it is tried.
    public var inviterEventID: String { "invite:\(text)" }

    public var description: String { text }
}
