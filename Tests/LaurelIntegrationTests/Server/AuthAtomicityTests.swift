import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// AUTH is all or nothing: when it fails after the token was accepted and the connection attached to the user's
/// session (here: loading the user's progress fails on a stored row the server cannot read), the connection gets
/// one ERR under the tag, nothing else, and stays unauthenticated, so a later AUTH starts afresh.
@Suite struct AuthAtomicityTests {
    @Test func anAuthThatFailsAfterAttachingAnswersOnceAndLeavesNothingAttached() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-atomic")
        try await TestServer.run { port in
            // A template row whose tiers are not a list: what a broken operator's edit could leave behind. (Made once
            // the server has installed the built-in activities it refers to.)
            let template = try #require(try await LaurelTestDatabase.scalar(
                "INSERT INTO laurel.templates (user_id, activity_id, name, type, tiers) VALUES ($1::bigint, 'pushups', 'broken', 'volume', '{}') RETURNING id",
                [.text(user.id.description)]))
            let client = try await LineClient.connectAndGreet(port: port)
            try await client.send(#"a1 AUTH {"token":"\#(user.token)"}"#)
            let answer = try await client.nextLine()
            #expect(answer.tag == "a1" && answer.kind == "ERR", "\(answer)")
            #expect(answer.object["code"]?.stringValue == "internal", "\(answer)")
            // Nothing more for that AUTH: the next line answers the PING.
            try await client.send("p1 PING")
            let pong = try await client.nextLine()
            #expect(pong.tag == "p1" && pong.kind == "OK", "only one answer to the failed AUTH: \(pong)")
            let profile = try await client.request("PROFILE")
            #expect(profile.errorCode == "not_authenticated", "\(profile)")

            // Repaired, the same connection authenticates as a new one would (not `conflict`).
            try await LaurelTestDatabase.scalar("DELETE FROM laurel.templates WHERE id = $1::uuid RETURNING id", [.text(template)])
            let again = try await client.request("AUTH", ["token": .string(user.token)])
            #expect(again.kind == "OK", "\(again)")
            #expect(try await client.request("PROFILE").kind == "OK")
        }
    }
}
