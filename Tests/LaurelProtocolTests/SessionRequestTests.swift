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
        "PING", "QUIT", "PROFILE", "CHALLENGES", "SUBSCRIPTION", "TRIAL.START", "PRESETS", "ACCOUNT.EXPORT",
    ])
    func verbsWithoutFields(verb: String) {
        #expect(request(verb) == AnyHashable(NoArguments()))
        #expect(request(verb + " {}") == AnyHashable(NoArguments()))
        #expect(invalidField(verb + #" {"x":1}"#) == "x")
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
