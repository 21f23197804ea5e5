import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// Friends over real sockets and PostgreSQL (rules.md and protocol.md, "Friends and leaderboards"): invite codes,
/// acceptance with a FRIEND push on both sides and the inviter's `invite` event (which unlocks `first_invite`),
/// FRIENDS as each side sees the other, removal, the limits, the refusals, and what deleting an account leaves.
@Suite struct FriendsTests {

    static func invite(_ client: PushRecorder) async throws -> String {
        let answer = Engine.ok(try await client.request("INVITE.CREATE"))
        let code = try #require(answer["code"]?.stringValue)
        #expect(InviteCode(code) != nil, "\(code)")
        return code
    }

    static func friends(_ client: PushRecorder) async throws -> [JSONObject] {
        (Engine.ok(try await client.request("FRIENDS"))["friends"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    @Test func anInviteAcceptedMakesFriendsOnBothSidesAndUnlocksTheInvitersFirstInvite() async throws {
        let inviter = try await LaurelTestDatabase.createUser("inviter")
        let invitee = try await LaurelTestDatabase.createUser("invitee", timeZone: "Pacific/Kiritimati")
        try await TestServer.run { port in
            let a = try await PushRecorder.authenticated(port: port, token: inviter.token)
            let b = try await PushRecorder.authenticated(port: port, token: invitee.token)
            let created = Engine.ok(try await a.request("INVITE.CREATE"))
            let code = try #require(created["code"]?.stringValue)
            let expiresAt = try #require(created["expires_at"]?.stringValue.flatMap(Timestamp.parse))
            #expect(abs(expiresAt.timeIntervalSinceNow - 7 * 86_400) < 60)

            // The invitee logged yesterday only: as a friend sees it, a streak of 1 at risk today.
            Engine.ok(try await b.request("LOG", Engine.log("pushups", amount: 5, at: Date().addingTimeInterval(-86_400))))
            // Typed in lower case with spaces around: still the code.
            let accepted = Engine.ok(try await b.request("INVITE.ACCEPT", ["code": .string("  \(code.lowercased()) ")]))
            let friend = try #require(accepted["friend"]?.objectValue)
            #expect(friend["user"] == .string(inviter.name) && friend["user_id"] == .string(inviter.id.description))
            #expect(friend["level"] == 1 && friend["xp"] == 0)
            #expect(friend["streak"] == ["current": 0, "at_risk": false])
            let since = try #require(friend["since"])

            // Both sides get a FRIEND push describing the other; the inviter's `invite` event unlocks first_invite.
            let bPushes = try await b.wait { $0.contains { $0.kind == "FRIEND" } }
            #expect(bPushes.filter { $0.kind == "FRIEND" }.map { $0.object["user_id"] } == [.string(inviter.id.description)])
            let aPushes = try await a.wait { pushes in
                pushes.contains { $0.kind == "FRIEND" } && pushes.contains { $0.kind == "UNLOCK" && $0.object["id"] == "first_invite" }
            }
            let toInviter = try #require(aPushes.first { $0.kind == "FRIEND" }?.object)
            #expect(toInviter["user"] == .string(invitee.name) && toInviter["since"] == since)
            #expect(toInviter["streak"] == ["current": 1, "at_risk": true], "\(toInviter)")
            #expect(toInviter["seq"] != nil)
            #expect(aPushes.filter { $0.kind == "UNLOCK" && $0.object["id"] == "first_invite" }.count == 1)

            // FRIENDS, each side.
            let aFriends = try await Self.friends(a)
            #expect(aFriends.map { $0["user_id"] } == [.string(invitee.id.description)])
            #expect(aFriends.first?["streak"] == ["current": 1, "at_risk": true] && aFriends.first?["since"] == since)
            let bFriends = try await Self.friends(b)
            #expect(bFriends.map { $0["user"] } == [.string(inviter.name)])
            // After first_invite the inviter has its XP, as the invitee now sees.
            #expect((bFriends.first?["xp"]?.intValue ?? 0) > 0, "\(bFriends)")

            // The code is used up; an own code and a second friendship are conflicts.
            #expect(try await b.request("INVITE.ACCEPT", ["code": .string(code)]).errorField == "code")
            let own = try await Self.invite(a)
            #expect(try await a.request("INVITE.ACCEPT", ["code": .string(own)]).errorCode == "conflict")
            #expect(try await b.request("INVITE.ACCEPT", ["code": .string(own)]).errorCode == "conflict")
            #expect(try await b.request("INVITE.ACCEPT", ["code": "nope!"]).errorField == "code")
            // A code past its seven days is not_found like an unknown one, and stays unused.
            let expired = try await Self.invite(a)
            try await LaurelTestDatabase.scalar(
                "UPDATE laurel.invites SET expires_at = now() - interval '1 second' WHERE code = $1::text", [.text(expired)])
            let late = try await b.request("INVITE.ACCEPT", ["code": .string(expired)])
            #expect(late.errorCode == "not_found" && late.errorField == "code")
            #expect(try await b.request("INVITE.ACCEPT").errorCode == "invalid_argument")
            #expect(try await b.request("INVITE.ACCEPT", ["code": 12345678]).errorCode == "invalid_argument")

            // The event is stored once, under the code's key; replaying the push stream shows the FRIEND push.
            #expect(try await LaurelTestDatabase.count(
                "SELECT count(*) FROM laurel.reported_events WHERE user_id = $1::bigint AND id = $2::text",
                [.text(inviter.id.description), .text("invite:\(code)")]) == 1)
            #expect(try await LaurelTestDatabase.scalar(
                "SELECT event_recorded::text FROM laurel.invites WHERE code = $1::text", [.text(code)]) == "true")
            let replayed = Engine.ok(try await b.request("NOTIFICATIONS"))["notifications"]?.arrayValue ?? []
            #expect(replayed.contains { $0.objectValue?["kind"] == "FRIEND" }, "\(replayed)")

            // Removal ends it for both; a second removal finds no friend.
            Engine.ok(try await a.request("FRIEND.REMOVE", ["user_id": .string(invitee.id.description)]))
            let (aLeft, bLeft) = (try await Self.friends(a), try await Self.friends(b))
            #expect(aLeft.isEmpty && bLeft.isEmpty)
            #expect(try await b.request("FRIEND.REMOVE", ["user_id": .string(inviter.id.description)]).errorField == "user_id")
            #expect(try await b.request("FRIEND.REMOVE", ["user_id": "someone"]).errorField == "user_id")
            #expect(try await b.request("FRIEND.REMOVE", ["user_id": 5]).errorCode == "invalid_argument")
        }
    }

    @Test func limitsOfOpenCodesAndOfFriends() async throws {
        let busy = try await LaurelTestDatabase.createUser("busy")
        let first = try await LaurelTestDatabase.createUser("first")
        let second = try await LaurelTestDatabase.createUser("second")
        var configuration = ServerConfiguration(port: 0)
        configuration.limits.friends = 1
        try await TestServer.run(configuration: configuration) { port in
            let a = try await PushRecorder.authenticated(port: port, token: busy.token)
            var codes: [String] = []
            for _ in 1...InviteCode.maximumOpen { codes.append(try await Self.invite(a)) }
            #expect(Set(codes).count == InviteCode.maximumOpen)
            let refused = try await a.request("INVITE.CREATE")
            #expect(refused.errorCode == "too_large", "\(refused.raw)")

            // With a limit of one friend, the second acceptance is refused and stores nothing.
            let b = try await PushRecorder.authenticated(port: port, token: first.token)
            Engine.ok(try await b.request("INVITE.ACCEPT", ["code": .string(codes[0])]))
            // An accepted code is no longer open: there is room for one more.
            Engine.ok(try await a.request("INVITE.CREATE"))
            let c = try await PushRecorder.authenticated(port: port, token: second.token)
            #expect(try await c.request("INVITE.ACCEPT", ["code": .string(codes[1])]).errorCode == "too_large")
            let (aFriends, cFriends) = (try await Self.friends(a), try await Self.friends(c))
            #expect(aFriends.count == 1 && cFriends.isEmpty)
            #expect(try await LaurelTestDatabase.scalar(
                "SELECT (accepted_by IS NULL)::text FROM laurel.invites WHERE code = $1::text", [.text(codes[1])]) == "true")
        }
    }

    @Test func twoUsersAcceptingEachOthersCodesAtOnceEndAsOneFriendship() async throws {
        let one = try await LaurelTestDatabase.createUser("mutual-one")
        let two = try await LaurelTestDatabase.createUser("mutual-two")
        try await TestServer.run { port in
            let a = try await PushRecorder.authenticated(port: port, token: one.token)
            let b = try await PushRecorder.authenticated(port: port, token: two.token)
            let (codeA, codeB) = (try await Self.invite(a), try await Self.invite(b))
            async let fromA = a.request("INVITE.ACCEPT", ["code": .string(codeB)])
            async let fromB = b.request("INVITE.ACCEPT", ["code": .string(codeA)])
            let answers = try await [fromA, fromB]
            #expect(answers.filter { $0.kind == "OK" }.count == 1, "\(answers.map(\.raw))")
            #expect(answers.filter { $0.errorCode == "conflict" }.count == 1)
            let (aFriends, bFriends) = (try await Self.friends(a), try await Self.friends(b))
            #expect(aFriends.count == 1 && bFriends.count == 1)
            // Each inviter whose code was accepted gets its event; the other code stays open.
            #expect(try await LaurelTestDatabase.count(
                "SELECT count(*) FROM laurel.invites WHERE code IN ($1::text, $2::text) AND accepted_by IS NOT NULL",
                [.text(codeA), .text(codeB)]) == 1)
        }
    }

    @Test func anAcceptanceWhoseInviterEventWasInterruptedIsFinishedLater() async throws {
        let inviter = try await LaurelTestDatabase.createUser("interrupted")
        let invitee = try await LaurelTestDatabase.createUser("accepted-earlier")
        let code = InviteCode.random().text
        var configuration = ServerConfiguration(port: 0)
        configuration.interruptedInviteEventInterval = .seconds(1)
        try await TestServer.run(configuration: configuration) { port in
            let a = try await PushRecorder.authenticated(port: port, token: inviter.token)
            // As a server that stopped right after the acceptance's commit leaves it: friends, no event. (Made once
            // this server runs: a server of another test takes over only acceptances older than a minute.)
            try await LaurelTestDatabase.scalar(
                """
                WITH invite AS (
                    INSERT INTO laurel.invites (code, inviter_id, created_at, expires_at, accepted_by, accepted_at)
                    VALUES ($1::text, $2::bigint, now() - interval '1 hour', now() + interval '6 days', $3::bigint, now() - interval '5 seconds')
                )
                INSERT INTO laurel.friendships (user_id, friend_id, since)
                VALUES ($2::bigint, $3::bigint, now() - interval '5 seconds'), ($3::bigint, $2::bigint, now() - interval '5 seconds')
                """, [.text(code), .text(inviter.id.description), .text(invitee.id.description)])
            let pushes = try await a.wait { $0.contains { $0.kind == "UNLOCK" && $0.object["id"] == "first_invite" } }
            #expect(pushes.filter { $0.kind == "UNLOCK" && $0.object["id"] == "first_invite" }.count == 1)
            try await Task.sleep(for: .seconds(2))
            #expect(try await LaurelTestDatabase.count(
                "SELECT count(*) FROM laurel.reported_events WHERE user_id = $1::bigint AND name = 'invite'", [.text(inviter.id.description)]) == 1)
            #expect(try await LaurelTestDatabase.scalar(
                "SELECT event_recorded::text FROM laurel.invites WHERE code = $1::text", [.text(code)]) == "true")
            #expect(try await a.sync().filter { $0.kind == "UNLOCK" && $0.object["id"] == "first_invite" }.count == 1)
        }
    }

    @Test func exportListsFriendsAndInvitesAndDeletionTakesThemAway() async throws {
        let stays = try await LaurelTestDatabase.createUser("stays")
        let leaves = try await LaurelTestDatabase.createUser("leaves")
        try await TestServer.run { port in
            let a = try await PushRecorder.authenticated(port: port, token: stays.token)
            let b = try await PushRecorder.authenticated(port: port, token: leaves.token)
            let code = try await Self.invite(b)
            let open = try await Self.invite(b)
            Engine.ok(try await a.request("INVITE.ACCEPT", ["code": .string(code)]))
            let exported = Engine.ok(try await b.request("ACCOUNT.EXPORT"))
            #expect(exported["friends"]?.arrayValue?.compactMap { $0.objectValue?["user_id"] } == [.string(stays.id.description)])
            #expect(Set(exported["invites"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.stringValue } ?? []) == [code, open])

            Engine.ok(try await b.request("ACCOUNT.DELETE", ["confirm": .string(leaves.name)]))
            #expect(try await Self.friends(a).isEmpty)
            #expect(try await a.request("INVITE.ACCEPT", ["code": .string(open)]).errorField == "code")
            #expect(try await LaurelTestDatabase.count(
                "SELECT count(*) FROM laurel.invites WHERE inviter_id = $1::bigint OR accepted_by = $1::bigint", [.text(leaves.id.description)]) == 0)
        }
    }

    @Test func theLeaderboardsSettingIsKeptAndShown() async throws {
        let user = try await LaurelTestDatabase.createUser("private")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            #expect(Engine.ok(try await client.request("SETTINGS"))["leaderboards"] == true)
            #expect(Engine.ok(try await client.request("SETTINGS", ["leaderboards": false]))["leaderboards"] == false)
            #expect(Engine.ok(try await client.request("SETTINGS", ["weekly_goal": 4]))["leaderboards"] == false)
            #expect(try await client.request("SETTINGS", ["leaderboards": "no"]).errorField == "leaderboards")
        }
        // Kept across sessions.
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            #expect(Engine.ok(try await client.request("SETTINGS"))["leaderboards"] == false)
        }
    }
}
