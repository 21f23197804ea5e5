import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// INVITE.CREATE, INVITE.ACCEPT, FRIENDS and FRIEND.REMOVE (rules.md, "Friends and leaderboards"). Friendships are
/// shared between two users rather than one user's progress, so they are written by statements of their own; the
/// inviter's `invite` event, a fact of the inviter, follows an acceptance through the inviter's write path
/// (``InviterEvent``).
enum FriendRequests {
    /// Codes drawn before giving up on a free one: with 31^8 codes, a second draw is already a rarity.
    private static let draws = 5

    static func createInvite(in context: RequestContext) async throws -> RequestOutcome {
        let now = context.now
        for _ in 1...draws {
            let code = InviteCode.random()
            switch try await context.store.createInvite(code, of: context.user.id, at: now) {
            case .created:
                return RequestOutcome(["code": .string(code.text), "expires_at": .string(Timestamp.format(InviteCode.expiry(ofCodeMadeAt: now)))])
            case .tooManyOpen:
                throw ProtocolError.tooLarge(
                    limit: InviteCode.maximumOpen, message: "you have \(InviteCode.maximumOpen) open invite codes; one must be used or expire first")
            case .codeTaken:
                continue
            }
        }
        throw ProtocolError.internal("no free invite code found")
    }

    static func acceptInvite(_ request: InviteAcceptRequest, in context: RequestContext) async throws -> RequestOutcome {
        guard let code = request.code else { throw ProtocolError.notFound(field: "code", message: "no open invite code like that") }
        let now = context.now
        let maxFriends = context.services.configuration.limits.friends
        let acceptance = try await context.store.acceptInvite(code, by: context.user.id, at: now, maxFriends: maxFriends) { friend, since in
            FriendRendering.text(friend, since: since, at: now)
        }
        switch acceptance {
        case .accepted(let inviter, let push):
            // The acceptance moved the user's stored version on (the FRIEND push): catch up before the next answer.
            context.session.progress.markBehind()
            // The answer's FRIEND is the one the user's push carries: rendered once, by `describe` above.
            var json = JSONWriter()
            json.beginObject()
            json.key("friend")
            json.raw(push.data)
            json.endObject()
            var outcome = RequestOutcome(json: json, pushes: [push])
            let event = InviterEvent(services: context.services)
            let accepted = AcceptedInvite(code: code, inviter: AuthenticatedUser(id: inviter.user, name: inviter.name), acceptedAt: now)
            outcome.followUp = { await event.record(accepted) }
            return outcome
        case .unknownCode:
            throw ProtocolError.notFound(field: "code", message: "no open invite code like that (unknown, expired or used)")
        case .ownCode:
            throw ProtocolError.conflict("this is your own invite code")
        case .alreadyFriends:
            throw ProtocolError.conflict("you are friends already")
        case .friendsLimit:
            throw ProtocolError.tooLarge(limit: maxFriends, message: "one of you has \(maxFriends) friends already")
        }
    }

    static func friends(in context: RequestContext) async throws -> RequestOutcome {
        let now = context.now
        let friends = try await context.store.friends(of: context.user.id)
        var json = JSONWriter()
        json.beginObject()
        json.key("friends")
        json.beginArray()
        for friend in friends { FriendRendering.write(friend.figures, since: friend.since, at: now, into: &json) }
        json.endArray()
        json.endObject()
        return RequestOutcome(json: json)
    }

    static func removeFriend(_ request: FriendRemoveRequest, in context: RequestContext) async throws -> RequestOutcome {
        guard let friend = request.friend, try await context.store.removeFriend(friend, of: context.user.id) else {
            throw ProtocolError.notFound(field: "user_id", message: "no friend with that user_id")
        }
        return RequestOutcome(nil)
    }
}
