import LaurelJSON

/// A request line split into its parts, `TAG SP VERB [SP JSON-OBJECT]`, before the verb's fields are checked.
public struct RequestLine: Sendable, Hashable {
    /// The client's tag, echoed in the answer.
    public var tag: String
    /// The verb in upper case; always one the parser was told is known.
    public var verb: String
    /// The argument object, or `nil` when the line has none.
    public var argument: JSONObject?

    public init(tag: String, verb: String, argument: JSONObject? = nil) {
        self.tag = tag
        self.verb = verb
        self.argument = argument
    }
}

