import LaurelCore
import LaurelJSON

/// `INVITE.ACCEPT {"code"}`: become friends with the user who made the code.
public struct InviteAcceptRequest: RequestArguments, Hashable {
    /// The code as typed, trimmed and in capitals; nil when it cannot be a code at all (it is then unknown:
    /// `not_found`, like a code that never existed).
    public var code: InviteCode?

    public init(code: InviteCode?) {
        self.code = code
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["code"])
        let text = try fields.required(fields.string("code", .inviteCode), "code")
        code = InviteCode(text.uppercased())
    }
}

/// `FRIEND.REMOVE {"user_id"}`: end a friendship, on both sides.
public struct FriendRemoveRequest: RequestArguments, Hashable {
    /// The friend's id as FRIENDS shows it; nil when the text is no user id (no such friend, then: `not_found`).
    public var friend: UserID?

    public init(friend: UserID?) {
        self.friend = friend
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["user_id"])
        let text = try fields.required(fields.string("user_id", .identifier), "user_id")
        friend = Int64(text).map(UserID.init)
    }
}
