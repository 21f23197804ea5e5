import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `laurel` executable as a separate process: a LOG answered `OK` is committed before the answer
/// (protocol.md "Errors"), so it survives `kill -9`; and SIGTERM shuts down gracefully with exit code 0.
@Suite struct DurabilityTests {
    @Test func aLogAnsweredOkSurvivesKillDashNine() async throws {
        _ = try await LaurelTestDatabase.admin()  // migrated before the child process starts
        let user = try await LaurelTestDatabase.createUser("kill9")
        let logID = "survivor-\(UUID().uuidString)"

        let (doomed, port) = try await ServerProcess.start()
        let client = try await LineClient.authenticated(port: port, token: user.token)
        let answer = try await client.request("LOG", ["activity": "squats", "amount": 42, "id": .string(logID), "note": "before the crash"])
        #expect(answer.kind == "OK", "\(answer)\n\(doomed.errorOutput)")
        doomed.send(SIGKILL)
        _ = try await doomed.exitStatus()
        #expect(doomed.terminationReason == .uncaughtSignal)
        #expect(await client.linesUntilClosed(timeout: .seconds(15)) != nil, "the killed server's connection did not end")

        let row = try await LaurelTestDatabase.admin().withConnection { connection in
            try connection.query(
                "SELECT activity_id, amount, note, deleted_at IS NULL AS live FROM laurel.logs WHERE user_id = $1::bigint AND id = $2::text",
                [.text(user.id.description), .text(logID)]
            ).first
        }
        let stored = try #require(row, "the acknowledged log is not in laurel.logs")
        #expect(try stored.string("activity_id") == "squats")
        #expect(try stored.int("amount") == 42)
        #expect(stored["note"] == "before the crash")
        #expect(try stored.bool("live"))

        let (restarted, secondPort) = try await ServerProcess.start()
        let again = try await LineClient.authenticated(port: secondPort, token: user.token)
        let logs = try await again.request("LOGS")
        let listed = logs.okObject["logs"]?.arrayValue ?? []
        #expect(listed.count == 1, "\(logs)")
        let log = try #require(listed.first?.objectValue)
        #expect(log["id"]?.stringValue == logID)
        #expect(log["amount"]?.intValue == 42)
        #expect(log["activity"]?.stringValue == "squats")
        #expect(log["note"]?.stringValue == "before the crash")
        let retry = try await again.request("LOG", ["activity": "squats", "amount": 42, "id": .string(logID), "note": "before the crash"])
        #expect(retry.okObject["duplicate"]?.boolValue == true, "a client retrying after the crash does not log twice")

        // SIGTERM: a graceful shutdown that says BYE and exits 0.
        restarted.send(SIGTERM)
        let lines = try #require(await again.linesUntilClosed(timeout: .seconds(20)), "the connection stayed open after SIGTERM")
        #expect(lines.withoutStoredPushes.map(\.raw) == [#"* BYE {"reason":"shutdown"}"#])
        #expect(try await restarted.exitStatus() == 0, "\(restarted.errorOutput)")
        #expect(restarted.terminationReason == .exit)
        #expect(try await LaurelTestDatabase.logCount(of: user) == 1)
    }
}
