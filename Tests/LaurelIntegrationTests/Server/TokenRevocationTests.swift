import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Synchronization
import Testing

/// `laurel.revoke_tokens(name)` from psql ends the user's open connections with `BYE token_revoked` (protocol.md
/// "Admin API"), and only that user's.
@Suite struct TokenRevocationTests {
    @Test func revokingTokensClosesThatUsersConnectionsOnly() async throws {
        let target = try await LaurelTestDatabase.createUser("revoked")
        let bystander = try await LaurelTestDatabase.createUser("bystander")
        try await TestServer.run { port in
            let first = try await LineClient.authenticated(port: port, token: target.token)
            let second = try await LineClient.authenticated(port: port, token: target.token)
            let other = try await LineClient.authenticated(port: port, token: bystander.token)
            let unauthenticated = try await LineClient.connectAndGreet(port: port)

            let revoked = try await LaurelTestDatabase.scalar("SELECT laurel.revoke_tokens($1::text)", [.text(target.name)])
            #expect(revoked == "1")

            for client in [first, second] {
                let lines = try #require(await client.linesUntilClosed(timeout: .seconds(10)), "a connection of the revoked user stayed open")
                #expect(lines.withoutStoredPushes.map(\.raw) == [#"* BYE {"reason":"token_revoked"}"#])
            }

            #expect(try await other.pingSucceeds())
            #expect(try await other.request("LOG", ["activity": "pushups"]).kind == "OK")
            #expect(other.pushes.withLock { $0.filter { $0.kind == "BYE" } }.isEmpty)
            #expect(try await unauthenticated.pingSucceeds())

            let again = try await LineClient.connectAndGreet(port: port)
            #expect(try await again.request("AUTH", ["token": .string(target.token)]).errorCode == "auth_failed")
        }
    }

    @Test func revokingTokensReachesEveryServerInstance() async throws {
        let target = try await LaurelTestDatabase.createUser("revoked-everywhere")
        try await TestServer.run { firstPort in
            try await TestServer.run { secondPort in
                let onFirst = try await LineClient.authenticated(port: firstPort, token: target.token)
                let onSecond = try await LineClient.authenticated(port: secondPort, token: target.token)
                _ = try await LaurelTestDatabase.scalar("SELECT laurel.revoke_tokens($1::text)", [.text(target.name)])
                for client in [onFirst, onSecond] {
                    let lines = try #require(await client.linesUntilClosed(timeout: .seconds(10)), "a connection stayed open")
                    #expect(lines.withoutStoredPushes.map(\.raw) == [#"* BYE {"reason":"token_revoked"}"#])
                }
            }
        }
    }
}
