import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// FRIEND objects (FRIENDS, INVITE.ACCEPT, the FRIEND push): `{"user", "user_id", "since", "level", "xp", "streak":
/// {"current", "at_risk"}}`, the streak as it stands at the moment shown.
enum FriendRendering {
    static func write(_ friend: FriendFigures, since: Date, at now: Date, into json: inout JSONWriter) {
        let streak = friend.streak(at: now)
        json.beginObject()
        json.field("user", friend.name)
        json.field("user_id", friend.user.description)
        json.field("since", timestamp: since)
        json.field("level", friend.level)
        json.field("xp", friend.xp)
        json.key("streak")
        json.beginObject()
        json.field("current", streak.current)
        json.field("at_risk", streak.atRisk)
        json.endObject()
        json.endObject()
    }

    static func text(_ friend: FriendFigures, since: Date, at now: Date) -> String {
        var json = JSONWriter()
        write(friend, since: since, at: now, into: &json)
        return json.text
    }
}
