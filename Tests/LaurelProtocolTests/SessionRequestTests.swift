import LaurelProtocol
import Testing

@Suite struct SessionAndAccountRequestTests {
    @Test func auth() {
        #expect(request(#"AUTH {"token":"tok"}"#) == .auth(AuthRequest(token: "tok")))
        #expect(request(#"AUTH {"token":"tok","resume_after":0}"#) == .auth(AuthRequest(token: "tok", resumeAfter: 0)))
        #expect(invalidField("AUTH") == "token")
        #expect(invalidField(#"AUTH {"token":""}"#) == "token")
        #expect(invalidField(#"AUTH {"token":"t","resume_after":-1}"#) == "resume_after")
        #expect(invalidField(#"AUTH {"token":"t","resume_after":"5"}"#) == "resume_after")
        #expect(invalidField(#"AUTH {"token":"t","user":"ada"}"#) == "user")
    }

    @Test(arguments: [
        ("PING", Request.ping), ("QUIT", .quit), ("PROFILE", .profile), ("CHALLENGES", .challenges),
        ("SUBSCRIPTION", .subscription), ("TRIAL.START", .trialStart), ("PRESETS", .presets),
        ("ACCOUNT.EXPORT", .accountExport),
    ])
    func verbsWithoutFields(verb: String, expected: Request) {
        #expect(request(verb) == expected)
        #expect(request(verb + " {}") == expected)
        #expect(invalidField(verb + #" {"x":1}"#) == "x")
        #expect(expected.verb.rawValue == verb)
    }

    @Test func accountDelete() {
        #expect(request(#"ACCOUNT.DELETE {"confirm":"ada"}"#) == .accountDelete(AccountDeleteRequest(confirm: "ada")))
        #expect(invalidField("ACCOUNT.DELETE") == "confirm")
        #expect(invalidField(#"ACCOUNT.DELETE {"confirm":""}"#) == "confirm")
    }

    @Test func notifications() {
        #expect(request("NOTIFICATIONS") == .notifications(NotificationsRequest(after: nil, limit: 100)))
        #expect(request(#"NOTIFICATIONS {"after":12,"limit":1000}"#)
            == .notifications(NotificationsRequest(after: 12, limit: 1000)))
        #expect(invalidField(#"NOTIFICATIONS {"after":-1}"#) == "after")
        #expect(invalidField(#"NOTIFICATIONS {"limit":0}"#) == "limit")
        #expect(invalidField(#"NOTIFICATIONS {"limit":1001}"#) == "limit")
        #expect(invalidField(#"NOTIFICATIONS {"limit":5.5}"#) == "limit")
    }

    @Test func onlyAuthPingAndQuitWorkBeforeAuthentication() {
        #expect(Set(Verb.allCases.filter(\.isAllowedBeforeAuthentication)) == [.auth, .ping, .quit])
    }

    @Test func requestLineWithAnUnknownVerbIsRejectedByParse() {
        #expect(throws: ProtocolError.unknownVerb("NOPE")) { try Request.parse(RequestLine(tag: "t", verb: "NOPE")) }
    }
}
