import LaurelJSON

/// `{"id"}`: the argument of the verbs that name one record by its id (LOG.DELETE, TEMPLATE.DELETE).
public struct IDRequest: RequestArguments, Hashable {
    /// The id, 1 to 128 characters, taken exactly as sent.
    public var id: String

    public init(id: String) {
        self.id = id
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["id"])
        id = try fields.required(fields.string("id", .identifier), "id")
    }
}
