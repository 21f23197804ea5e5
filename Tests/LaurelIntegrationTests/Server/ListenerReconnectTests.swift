import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// The server hears other writers through one LISTEN connection; PostgreSQL keeps no notification for a listener
/// that is away. After that connection comes back, every connected user is compared with the database, so what
/// was stored meanwhile still reaches the user's connections.
@Suite struct ListenerReconnectTests {
    @Test func aPushStoredWhileNothingWasHeardArrivesAfterTheListenerReconnects() async throws {
        let user = try await LaurelTestDatabase.createUser("relisten", timeZone: TestClock.zoneWhereItIsMidday())
        let other = try await LaurelTestDatabase.createUser("relisten-other")
        try await TestServer.withServer { server in
            let device = try await PushRecorder.authenticated(port: server.port, token: user.token)
            let bystander = try await PushRecorder.authenticated(port: server.port, token: other.token)
            let resumes = server.counter("laurel_store_event_resumes_total")

            // A push stored as an operator's function stores one, but whose notification never went out: the
            // server cannot have heard of it, so only comparing with the database after the reconnect delivers it.
            try await LaurelTestDatabase.scalar(
                """
                WITH bumped AS (UPDATE laurel.progress SET last_seq = last_seq + 1 WHERE user_id = $1::bigint RETURNING last_seq)
                INSERT INTO laurel.pushes (user_id, seq, kind, data)
                SELECT $1::bigint, last_seq, 'SUBSCRIPTION', '{"tier":"free","reason":"test"}'::json FROM bumped
                RETURNING seq
                """, [.text(user.id.description)])
            #expect(try await device.settle().isEmpty)

            try await server.dropListenerConnection()
            let arrived = try await device.wait { !$0.isEmpty }
            #expect(arrived.map(\.kind) == ["SUBSCRIPTION"], "\(arrived.map(\.raw))")
            #expect(arrived.first?.object["seq"]?.intValue == 1)
            #expect(arrived.first?.object["reason"]?.stringValue == "test")
            #expect(server.counter("laurel_store_event_resumes_total") > resumes)

            // Once only, and only to its user; the connections go on as before.
            #expect(try await device.settle().count == 1)
            #expect(try await bystander.settle().isEmpty)
            let logged = Engine.ok(try await device.request("LOG", Engine.log("pushups")))
            #expect(Engine.ids(logged["unlocked"]) == ["first_exercise"])
            #expect(try await device.wait { $0.contains { $0.kind == "UNLOCK" } }.compactMap { $0.object["seq"]?.intValue }.contains(2))
        }
    }

    @Test func aUserDeletedWhileNothingWasHeardIsDisconnectedAfterTheListenerReconnects() async throws {
        let user = try await LaurelTestDatabase.createUser("relisten-deleted")
        try await TestServer.withServer { server in
            let client = try await LineClient.authenticated(port: server.port, token: user.token)
            // Deleted without the notification laurel.delete_user sends.
            try await LaurelTestDatabase.scalar("DELETE FROM laurel.users WHERE id = $1::bigint RETURNING id", [.text(user.id.description)])
            try await server.dropListenerConnection()
            let bye = try await client.push("BYE")
            #expect(bye.object["reason"]?.stringValue == "account_deleted", "\(bye.raw)")
        }
    }
}
