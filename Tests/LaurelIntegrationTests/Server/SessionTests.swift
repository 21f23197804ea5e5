import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// Connection life over a real socket: the greeting, AUTH, PING, QUIT.
@Suite struct SessionTests {
    @Test func greetingAuthAndPing() async throws {
        let user = try await LaurelTestDatabase.createUser("session")
        try await TestServer.run { port in
            let client = try await LaurelClientFixture.connect(port: port)
            let hello = try await client.nextLine()
            #expect(hello.raw == #"* HELLO {"server":"laurel","version":"1.0.0","protocol":1,"auth":["token"]}"#)

            let early = try await client.request("LOGS")
            #expect(early.errorCode == "not_authenticated")
            let ping = try await client.request("PING")
            #expect(ping.kind == "OK" && ping.object["time"]?.stringValue != nil)

            let wrong = try await client.request("AUTH", ["token": "lt_nope"])
            #expect(wrong.errorCode == "auth_failed")

            let auth = try await client.request("AUTH", ["token": .string(user.token)])
            #expect(auth.kind == "OK")
            #expect(auth.object["user"]?.stringValue == user.name)
            #expect(auth.object["user_id"]?.stringValue == user.id.description)
            #expect(auth.object["tier"]?.stringValue == "free")
            #expect(auth.object["time_zone"]?.stringValue == "UTC")
            #expect(auth.object["last_seq"]?.intValue == 0)

            let again = try await client.request("AUTH", ["token": .string(user.token)])
            #expect(again.errorCode == "conflict")

            let quit = try await client.request("QUIT")
            #expect(quit.kind == "OK")
            let rest = try #require(await client.linesUntilClosed())
            #expect(rest.map(\.kind) == ["BYE"])
        }
    }
}

/// Connecting without reading the greeting, for tests that look at it.
enum LaurelClientFixture {
    static func connect(port: Int) async throws -> LineClient {
        try await LineClient.connect(port: port)
    }
}
