import LaurelJSON

/// A request line split into its parts, `TAG SP VERB [SP JSON-OBJECT]`, before the verb's fields are checked.
public struct RequestLine: Sendable, Hashable {
    /// The client's tag, echoed in the answer.
    public var tag: String
    /// The verb in upper case; always one the parser was told is known.
    public var verb: String
    /// The argument object, or `nil` when the line has none (or when it is in `log`).
    public var argument: JSONObject?
    /// A LOG's argument, when the parser read it straight from its bytes (``LogArgumentScanner``): then `argument`
    /// is nil. Read through ``RequestArguments/init(line:)``.
    public var log: LogRequest?

    public init(tag: String, verb: String, argument: JSONObject? = nil) {
        self.tag = tag
        self.verb = verb
        self.argument = argument
    }

    public init(tag: String, verb: String, log: LogRequest) {
        self.tag = tag
        self.verb = verb
        self.log = log
    }
}

