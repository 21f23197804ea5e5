import LaurelCore
import LaurelProtocol
import Testing

@Suite struct SessionAndAccountRequestTests {
    @Test func auth() {
        #expect(request(#"AUTH {"token":"tok"}"#) == AnyHashable(AuthRequest(token: "tok")))
        #expect(request(#"AUTH {"token":"tok","resume_after":0}"#) == AnyHashable(AuthRequest(token: "tok", resumeAfter: 0)))
        #expect(invalidField("AUTH") == "token")
        #expect(invalidField(#"AUTH {"token":""}"#) == "token")
        #expect(invalidField(#"AUTH {"token":"t","resume_after":-1}"#) == "resume_after")
        #expect(invalidField(#"AUTH {"token":"t","resume_after":"5"}"#) == "resume_after")
        #expect(invalidField(#"AUTH {"token":"t","user":"ada"}"#) == "user")
    }

    @Test(arguments: [
        "PING", "QUIT", "PROFILE", "CHALLENGES", "SUBSCRIPTION", "TRIAL.START", "PRESETS", "ACCOUNT.EXPORT", "INVITE.CREATE",
        "FRIENDS",
    ])
    func verbsWithoutFields(verb: String) {
        #expect(request(verb) == AnyHashable(NoArguments()))
        #expect(request(verb + " {}") == AnyHashable(NoArguments()))
        #expect(invalidField(verb + #" {"x":1}"#) == "x")
    }

    @Test func inviteAccept() {
        // Typed by hand: trimmed and taken in capitals; a text that cannot be a code is an unknown code (nil).
        #expect(request(#"INVITE.ACCEPT {"code":" abcd2345 "}"#) == AnyHashable(InviteAcceptRequest(code: InviteCode("ABCD2345"))))
        #expect(request(#"INVITE.ACCEPT {"code":"ABCD1234"}"#) == AnyHashable(InviteAcceptRequest(code: nil)))
        #expect(request(#"INVITE.ACCEPT {"code":"ABCD23456"}"#) == AnyHashable(InviteAcceptRequest(code: nil)))
        #expect(invalidField("INVITE.ACCEPT") == "code")
        #expect(invalidField(#"INVITE.ACCEPT {"code":""}"#) == "code")
        #expect(invalidField(#"INVITE.ACCEPT {"code":12345678}"#) == "code")
        #expect(invalidField(#"INVITE.ACCEPT {"code":"ABCD2345","x":1}"#) == "x")
    }

    @Test func friendRemove() {
        #expect(request(#"FRIEND.REMOVE {"user_id":"42"}"#) == AnyHashable(FriendRemoveRequest(friend: UserID(42))))
        #expect(request(#"FRIEND.REMOVE {"user_id":"ada"}"#) == AnyHashable(FriendRemoveRequest(friend: nil)))
        #expect(invalidField("FRIEND.REMOVE") == "user_id")
        #expect(invalidField(#"FRIEND.REMOVE {"user_id":42}"#) == "user_id")
    }

    @Test func leaderboard() {
        #expect(request(#"LEADERBOARD {"board":"xp"}"#) == AnyHashable(LeaderboardRequest(board: .xp)))
        #expect(request(#"LEADERBOARD {"board":"activity","activity":"squats","period":"day","key":"2026-11-26","scope":"friends","limit":100,"after":"c"}"#)
            == AnyHashable(LeaderboardRequest(board: .activity, activity: "squats", period: .day, key: "2026-11-26", scope: .friends, limit: 100, after: "c")))
        #expect(request(#"LEADERBOARD {"board":"logs","around_me":true,"limit":1}"#)
            == AnyHashable(LeaderboardRequest(board: .logs, limit: 1, aroundMe: true)))
        #expect(invalidField("LEADERBOARD") == "board")
        #expect(invalidField(#"LEADERBOARD {"board":"activity"}"#) == "activity")
        #expect(invalidField(#"LEADERBOARD {"board":"xp","activity":"squats"}"#) == "activity")
        #expect(invalidField(#"LEADERBOARD {"board":"xp","period":"year"}"#) == "period")
        #expect(invalidField(#"LEADERBOARD {"board":"xp","limit":0}"#) == "limit")
        #expect(invalidField(#"LEADERBOARD {"board":"xp","around_me":true,"after":"c"}"#) == "after")
        #expect(invalidField(#"LEADERBOARD {"board":"xp","scope":"team"}"#) == "scope")
    }

    @Test func accountDelete() {
        #expect(request(#"ACCOUNT.DELETE {"confirm":"ada"}"#) == AnyHashable(AccountDeleteRequest(confirm: "ada")))
        #expect(invalidField("ACCOUNT.DELETE") == "confirm")
        #expect(invalidField(#"ACCOUNT.DELETE {"confirm":""}"#) == "confirm")
    }

    @Test func notifications() {
        #expect(request("NOTIFICATIONS") == AnyHashable(NotificationsRequest(after: nil, limit: 100)))
        #expect(request(#"NOTIFICATIONS {"after":12,"limit":1000}"#)
            == AnyHashable(NotificationsRequest(after: 12, limit: 1000)))
        #expect(invalidField(#"NOTIFICATIONS {"after":-1}"#) == "after")
        #expect(invalidField(#"NOTIFICATIONS {"limit":0}"#) == "limit")
        #expect(invalidField(#"NOTIFICATIONS {"limit":1001}"#) == "limit")
        #expect(invalidField(#"NOTIFICATIONS {"limit":5.5}"#) == "limit")
    }

}
