import LaurelJSON

/// `AUTH {"token", "resume_after"?}`: authenticate the connection, optionally replaying stored pushes.
public struct AuthRequest: RequestArguments, Hashable {
    /// The access token, 1 to 256 characters, compared exactly (not trimmed).
    public var token: String
    /// Replay every stored push with a greater `seq`; 0 or more.
    public var resumeAfter: Int?

    public init(token: String, resumeAfter: Int? = nil) {
        self.token = token
        self.resumeAfter = resumeAfter
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["token", "resume_after"])
        token = try fields.required(fields.string("token", .token), "token")
        resumeAfter = try fields.integer("resume_after", in: 0...Int.max)
    }
}

/// `NOTIFICATIONS {"after"?, "limit"?}`: stored pushes, oldest first.
public struct NotificationsRequest: RequestArguments, Hashable {
    /// The largest page a request may ask for.
    public static let maximumLimit = 1000
    public static let defaultLimit = 100

    /// Only pushes with a greater `seq`; 0 or more.
    public var after: Int?
    /// At most this many pushes, 1 to ``maximumLimit``; 100 when not given.
    public var limit: Int

    public init(after: Int? = nil, limit: Int = NotificationsRequest.defaultLimit) {
        self.after = after
        self.limit = limit
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["after", "limit"])
        after = try fields.integer("after", in: 0...Int.max)
        limit = try fields.integer("limit", in: 1...Self.maximumLimit) ?? Self.defaultLimit
    }
}

/// `ACCOUNT.DELETE {"confirm"}`: delete the user after they typed their own name.
public struct AccountDeleteRequest: RequestArguments, Hashable {
    /// The user's name as typed, 1 to 128 characters, not trimmed; the server compares it with the real name.
    public var confirm: String

    public init(confirm: String) {
        self.confirm = confirm
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["confirm"])
        confirm = try fields.required(fields.string("confirm", .confirmation), "confirm")
    }
}
