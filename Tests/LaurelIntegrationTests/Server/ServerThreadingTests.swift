import LaurelCore
import LaurelJSON
import LaurelProtocol
import NIOConcurrencyHelpers
import Testing
@testable import LaurelPostgres

/// Blocking libpq calls run on the pool's and the listener's own threads, never on an event loop or the
/// cooperative pool: after a server session doing real work, the thread audit counts only the calls the client
/// tests make off those threads on purpose.
@Suite struct ServerThreadingTests {
    @Test func aServerSessionMakesNoLibPQCallOutsideDatabaseThreads() async throws {
        let user = try await LaurelTestDatabase.createUser("threads")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let created = try await client.request("ACTIVITY.CREATE", ["name": "Burpees", "unit": "reps"])
            let activity = try #require(created.okObject["id"]?.stringValue)
            for amount in 1...5 {
                #expect(try await client.request("LOG", ["activity": .string(activity), "amount": .int(amount), "id": .string("t\(amount)")]).kind == "OK")
            }
            #expect(try await client.request("LOG", ["activity": "pushups", "id": "t1"]).errorCode == "conflict")
            #expect(try await client.request("LOG.DELETE", ["id": "t3"]).kind == "OK")
            #expect(try await client.request("LOGS", ["limit": 2]).kind == "OK")
            #expect(try await client.request("PROFILE").kind == "OK")
            #expect(try await client.request("SETTINGS", ["time_zone": "Europe/Paris"]).kind == "OK")
            #expect(try await client.request("ACTIVITY.DELETE", ["id": .string(activity)]).kind == "OK")
            #expect(try await client.request("ACTIVITIES", ["include_deleted": true]).kind == "OK")
            #expect(try await client.request("NOTIFICATIONS").kind == "OK")
            _ = try await LaurelTestDatabase.scalar("SELECT laurel.revoke_tokens($1::text)", [.text(user.name)])
            #expect(await client.linesUntilClosed(timeout: .seconds(10)) != nil)
        }
        // The client audit test raises the allowance before it makes its calls, so at no moment may the count
        // exceed it; the count catches up with it once those calls are made.
        #expect(LibPQThreadAudit.violations <= ClientTestDatabase.deliberateAuditViolations.withLockedValue { $0 })
        let matches = try await Eventually.holds(timeout: .seconds(20)) {
            LibPQThreadAudit.violations == ClientTestDatabase.deliberateAuditViolations.withLockedValue { $0 }
        }
        #expect(matches, "libpq calls outside database threads: \(LibPQThreadAudit.violations), deliberate: \(ClientTestDatabase.deliberateAuditViolations.withLockedValue { $0 })")
    }
}
