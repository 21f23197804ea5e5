/// Why a JSON document was rejected, and at which byte of the input.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The zero-based byte offset in the input where the problem was found.
    public var offset: Int
    /// A short explanation for people.
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        "invalid JSON at byte \(offset): \(reason)"
    }
}
