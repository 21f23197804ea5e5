import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// LOGs of many users are committed together (group commit); an `OK` is still only sent after the batch has
/// committed. Killing the server while batches are in flight loses no acknowledged log, and retrying every LOG
/// afterwards stores each exactly once.
@Suite struct GroupCommitDurabilityTests {
    static let users = 12
    static let logsEach = 40

    @Test func acknowledgedLogsSurviveKillDashNineDuringGroupCommits() async throws {
        _ = try await LaurelTestDatabase.admin()  // migrated before the child process starts
        var users: [TestUser] = []
        for _ in 0..<Self.users { users.append(try await LaurelTestDatabase.createUser("kill9-batch")) }

        let (doomed, port) = try await ServerProcess.start()
        var clients: [LineClient] = []
        for user in users { clients.append(try await LineClient.authenticated(port: port, token: user.token)) }
        let acknowledged = Acknowledged()

        // Every client pipelines all its LOGs at once and collects the ids answered OK until the server dies.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    let lines = (0..<Self.logsEach).map { "k\($0) LOG \(JSONValue.object(Self.log(user: index, number: $0)).serialized())" }
                    try await client.sendRaw(lines.joined(separator: "\n") + "\n")
                    while let line = try? await client.nextLine(timeout: .seconds(20)) {
                        guard line.kind == "OK", let id = line.object["log"]?["id"]?.stringValue else { continue }
                        acknowledged.ids.withLock { _ = $0[index, default: []].insert(id) }
                    }
                }
            }
            group.addTask {
                // Some answered, most still to come: kill it in the middle.
                _ = try await Eventually.holds(timeout: .seconds(30)) {
                    acknowledged.ids.withLock { $0.values.map(\.count).reduce(0, +) } >= Self.users * 3
                }
                doomed.send(SIGKILL)
                _ = try await doomed.exitStatus()
            }
            try await group.waitForAll()
        }
        let before = acknowledged.ids.withLock { $0 }
        let acknowledgedCount = before.values.map(\.count).reduce(0, +)
        #expect(acknowledgedCount >= Self.users * 3)

        for (index, user) in users.enumerated() {
            let stored = Set(try await Self.storedIDs(of: user))
            let missing = (before[index] ?? []).subtracting(stored)
            #expect(missing.isEmpty, "acknowledged but not stored: \(missing.sorted())")
        }

        // A client retrying everything after the crash stores each log once; what was acknowledged is a duplicate.
        let (restarted, secondPort) = try await ServerProcess.start()
        for (index, user) in users.enumerated() {
            let client = try await LineClient.authenticated(port: secondPort, token: user.token)
            for number in 0..<Self.logsEach {
                let answer = try await client.request("LOG", Self.log(user: index, number: number))
                let id = "batch-\(index)-\(number)"
                #expect(answer.kind == "OK", "\(answer)")
                if before[index]?.contains(id) == true {
                    #expect(answer.object["duplicate"]?.boolValue == true, "\(id) was acknowledged before the crash")
                }
            }
            let stored = try await Self.storedIDs(of: user)
            #expect(stored.count == Self.logsEach && Set(stored).count == Self.logsEach)
        }
        restarted.send(SIGTERM)
        #expect(try await restarted.exitStatus() == 0, "\(restarted.errorOutput)")
    }

    /// The ids answered OK, by user index.
    final class Acknowledged: Sendable {
        let ids = Mutex<[Int: Set<String>]>([:])
    }

    static func log(user: Int, number: Int) -> JSONObject {
        ["activity": "squats", "amount": .int(number + 1), "id": .string("batch-\(user)-\(number)")]
    }

    static func storedIDs(of user: TestUser) async throws -> [String] {
        try await LaurelTestDatabase.admin().withConnection { connection in
            try connection.query("SELECT id FROM laurel.logs WHERE user_id = $1::bigint", [.text(user.id.description)]).map { try $0.string("id") }
        }
    }
}
