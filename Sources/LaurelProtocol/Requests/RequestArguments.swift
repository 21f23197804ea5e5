import LaurelJSON

/// The checked argument of one verb: a type that reads the line's JSON object (or its absence) and refuses
/// anything the verb does not take, with `invalid_argument` naming the field.
///
/// Only syntax is checked here: presence, types, ranges and unknown fields. Checks that need stored state or
/// configuration (does the activity exist, is `at` inside the backfill window, is the time zone known) are left
/// to the server and the domain.
public protocol RequestArguments: Sendable {
    init(argument: JSONObject?) throws(ProtocolError)
    /// The arguments of `line`; its `argument` read by ``init(argument:)`` unless the verb's own reading of the line's
    /// bytes left them elsewhere in the line (LOG's, ``RequestLine/log``).
    init(line: RequestLine) throws(ProtocolError)
}

extension RequestArguments {
    public init(line: RequestLine) throws(ProtocolError) {
        try self.init(argument: line.argument)
    }
}

/// The argument of a verb without fields: none, or `{}`; any field it is given is unknown.
public struct NoArguments: RequestArguments, Hashable {
    public init() {}

    public init(argument: JSONObject?) throws(ProtocolError) {
        _ = try ArgumentReader(argument, fields: [])
    }
}
