import Foundation
import LaurelClient
import LaurelCore
import LaurelJSON
import LaurelPostgres
import Testing

/// The client's outbox against a real `laurel serve` process: facts recorded while no server runs are kept in a
/// file and stored once each when one comes; facts in flight when the server is killed with SIGKILL are sent again
/// with their ids and stored once each; an app launched again from the file sends only what was left.
@Suite struct OutboxTests {
    static func storedLogIDs(of user: TestUser) async throws -> [String] {
        let pool = try await LaurelTestDatabase.admin()
        return try await pool.withConnection { connection in
            try connection.query("SELECT id FROM laurel.logs WHERE user_id = $1::bigint ORDER BY id", [.int(Int(user.id.rawValue))])
                .map { try $0.string("id") }
        }
    }

    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("laurel-outbox-\(UUID().uuidString).json")
    }

    @Test func factsRecordedOfflineAreStoredOnceWhenAServerComes() async throws {
        let user = try await LaurelTestDatabase.createUser("outbox-offline")
        let port = try await HTTPProbe.freePort()
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let client = try AppClient.make(port: port, token: user.token, store: FileOutboxStore(url: file))
        await client.start()
        var ids: [String] = []
        for index in 0..<30 {
            ids.append(try await client.record(OutboxFact.log(activity: index % 3 == 0 ? "squats" : "pushups", amount: index + 1)).id)
        }
        #expect(await client.pendingFacts.count == 30)
        #expect(try FileOutboxStore(url: file).load().map(\.id) == ids, "kept in the file, oldest first")
        #expect(await client.status != LaurelClient.Status.connected)

        let (server, _) = try await ServerProcess.start(arguments: ["--port", String(port)])
        defer { server.send(SIGTERM) }
        for id in ids {
            let outcome = await client.outcome(of: id)
            guard case .acknowledged(let entry, _)? = outcome else {
                Issue.record("\(id): \(String(describing: outcome))")
                continue
            }
            #expect(entry.id == id)
        }
        #expect(await client.pendingFacts.isEmpty)
        #expect(try FileOutboxStore(url: file).load().isEmpty)
        #expect(try await Self.storedLogIDs(of: user) == ids.sorted())
        await client.stop()

        // The app launched again from the same file has nothing left to send.
        let relaunched = try AppClient.make(port: port, token: user.token, store: FileOutboxStore(url: file))
        #expect(await relaunched.pendingFacts.isEmpty)
    }

    @Test func factsInFlightWhenTheServerIsKilledAreStoredOnce() async throws {
        let user = try await LaurelTestDatabase.createUser("outbox-killed")
        let port = try await HTTPProbe.freePort()
        let (first, _) = try await ServerProcess.start(arguments: ["--port", String(port)])
        let client = try AppClient.make(port: port, token: user.token)
        await client.start()
        var ids: [String] = []
        for index in 0..<300 {
            ids.append(try await client.record(OutboxFact.log(activity: "pushups", amount: 1 + index % 7)).id)
        }
        // Some are acknowledged, the rest still on their way when the server dies.
        try await AppClient.eventually("some acknowledged") { await client.pendingFacts.count < 280 }
        first.send(SIGKILL)
        _ = try await first.exitStatus()
        let pendingAtKill = await client.pendingFacts.count
        let (second, _) = try await ServerProcess.start(arguments: ["--port", String(port)])
        defer { second.send(SIGTERM) }
        var acknowledged = 0
        var duplicates = 0
        for id in ids {
            guard case .acknowledged(_, let answer)? = await client.outcome(of: id) else {
                Issue.record("\(id) not acknowledged")
                continue
            }
            acknowledged += 1
            if answer.contains("\"duplicate\":true") { duplicates += 1 }
        }
        let stored = try await Self.storedLogIDs(of: user)
        print("outbox across SIGKILL: 300 recorded, \(pendingAtKill) pending at the kill, \(acknowledged) acknowledged (\(duplicates) as repeats), \(stored.count) stored, \(await client.authentications) authentications")
        #expect(acknowledged == 300)
        #expect(stored == ids.sorted(), "every fact stored, none twice")
        #expect(await client.authentications >= 2)
        await client.stop()
    }
}
