import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// AUTH over a real socket: what works before and after it, wrong and revoked tokens, and the third failure in a
/// row closing the connection.
@Suite struct AuthenticationTests {
    @Test func onlyAuthPingAndQuitWorkBeforeAuth() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-before")
        try await TestServer.run { port in
            let client = try await LineClient.connectAndGreet(port: port)
            for verb in ["LOGS", "PROFILE", "SETTINGS", "ACTIVITIES"] {
                #expect(try await client.request(verb).errorCode == "not_authenticated", "\(verb) before AUTH")
            }
            let log = try await client.request("LOG", ["activity": "pushups", "amount": 5])
            #expect(log.errorCode == "not_authenticated")
            #expect(try await client.pingSucceeds())

            let auth = try await client.request("AUTH", ["token": .string(user.token)])
            #expect(auth.kind == "OK")
            #expect(auth.object["user"]?.stringValue == user.name)
            #expect(try await client.request("LOGS").kind == "OK")
            #expect(try await client.request("LOG", ["activity": "pushups", "amount": 5]).kind == "OK")
            #expect(try await client.request("AUTH", ["token": .string(user.token)]).errorCode == "conflict")
            #expect(try await client.pingSucceeds())
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 1)
    }

    @Test func wrongTokensAreRefusedAndTheThirdInARowClosesTheConnection() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-wrong")
        try await TestServer.run { port in
            let client = try await LineClient.connectAndGreet(port: port)
            let other = String(user.token.dropLast()) + (user.token.hasSuffix("0") ? "1" : "0")
            #expect(try await client.request("AUTH", ["token": "lt_nope"]).errorCode == "auth_failed")
            #expect(try await client.pingSucceeds())
            #expect(try await client.request("AUTH", ["token": .string(other)]).errorCode == "auth_failed")
            #expect(try await client.pingSucceeds())
            let third = try await client.request("AUTH", ["token": .string(user.token.uppercased())])
            #expect(third.errorCode == "auth_failed")
            let rest = try #require(await client.linesUntilClosed(), "the connection stayed open after 3 failed AUTHs")
            #expect(rest.map(\.raw) == [#"* BYE {"reason":"auth_failed"}"#])
        }
    }

    @Test func aSuccessfulAuthEndsTheRunOfFailures() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-reset")
        try await TestServer.run { port in
            let client = try await LineClient.connectAndGreet(port: port)
            #expect(try await client.request("AUTH", ["token": "lt_wrong1"]).errorCode == "auth_failed")
            #expect(try await client.request("AUTH", ["token": "lt_wrong2"]).errorCode == "auth_failed")
            #expect(try await client.request("AUTH", ["token": .string(user.token)]).kind == "OK")
            // A second AUTH is a conflict, not a failure that counts toward closing.
            #expect(try await client.request("AUTH", ["token": .string(user.token)]).errorCode == "conflict")
            #expect(try await client.pingSucceeds())
        }
    }

    @Test func malformedAuthArgumentsAreInvalidArguments() async throws {
        try await TestServer.run { port in
            let client = try await LineClient.connectAndGreet(port: port)
            let missing = try await client.request("AUTH", [:])
            #expect(missing.errorCode == "invalid_argument" && missing.errorField == "token")
            let number = try await client.request("AUTH", ["token": 42])
            #expect(number.errorCode == "invalid_argument" && number.errorField == "token")
            let unknown = try await client.request("AUTH", ["token": "lt_x", "password": "secret"])
            #expect(unknown.errorCode == "invalid_argument" && unknown.errorField == "password")
            #expect(try await client.pingSucceeds())
        }
    }

    @Test func aRevokedTokenFailsAndANewlyIssuedOneWorks() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-revoked")
        let revoked = try await LaurelTestDatabase.scalar("SELECT laurel.revoke_tokens($1::text)", [.text(user.name)])
        #expect(revoked == "1")
        let fresh = try #require(try await LaurelTestDatabase.scalar("SELECT laurel.issue_token($1::text)", [.text(user.name)]))
        try await TestServer.run { port in
            let client = try await LineClient.connectAndGreet(port: port)
            #expect(try await client.request("AUTH", ["token": .string(user.token)]).errorCode == "auth_failed")
            #expect(try await client.pingSucceeds())
            let auth = try await client.request("AUTH", ["token": .string(fresh)])
            #expect(auth.kind == "OK")
            #expect(auth.object["user_id"]?.stringValue == user.id.description)
        }
    }
}
