import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// An instance passes over the announcements of its own users' writes, so a write whose commit fails without telling
/// whether it was stored (the connection broke while the database had it) has its user compared with the database:
/// the session learns where the user stands, and the connections get the pushes stored meanwhile.
@Suite struct CommitInDoubtTests {
    @Test func aCommitCutOffComparesItsUserWithTheDatabase() async throws {
        let user = try await LaurelTestDatabase.createUser("in-doubt")
        let userID = Int(user.id.rawValue)
        try await TestServer.withServer { server in
            let client = try await LineClient.authenticated(port: server.port, token: user.token)
            Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 1))))
            // A push stored without a word to any instance: only a look at the database finds it.
            _ = try await LaurelTestDatabase.scalar(
                """
                WITH moved AS (UPDATE laurel.progress SET last_seq = last_seq + 1 WHERE user_id = $1::bigint RETURNING last_seq)
                INSERT INTO laurel.pushes (user_id, seq, kind, data) SELECT $1::bigint, last_seq, 'LEVEL', '{"level":7}' FROM moved RETURNING seq
                """, [.int(userID)])

            // Another session holds the user's row, so the next commit waits for it; then the commit's connection is
            // cut off under it.
            let holder = try Self.holdRow(of: userID)
            defer { holder.terminate() }
            let holderPID = try #require(try await Self.waitForPID("""
                SELECT pid FROM pg_stat_activity WHERE application_name = 'laurel-tests-in-doubt-\(userID)' AND query LIKE '%pg_sleep%'
                """))
            async let answer = client.request("LOG", Engine.log("squats", amount: 3, at: TestClock.noon(daysAgo: 1, minute: 5), id: "in-doubt-1"))
            let waiting = try #require(try await Self.waitForPID("SELECT pid FROM pg_stat_activity WHERE \(holderPID) = ANY (pg_blocking_pids(pid))"))
            _ = try await LaurelTestDatabase.scalar("SELECT pg_terminate_backend($1::int)", [.int(waiting)])
            let failed = try await answer
            #expect(failed.kind != "OK", "the LOG's commit was cut off: \(failed.raw)")

            // The push stored meanwhile reaches the connection, as the write's announcement would have brought it.
            let push = try await client.push("LEVEL")
            #expect(push.object["level"]?.intValue == 7)
            #expect(server.counter("laurel_commits_in_doubt_total") == 1)

            _ = try await LaurelTestDatabase.scalar("SELECT pg_terminate_backend($1::int)", [.int(holderPID)])
            // Sent again, the LOG is stored once.
            Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 3, at: TestClock.noon(daysAgo: 1, minute: 5), id: "in-doubt-1")))
            #expect(try await LaurelTestDatabase.logCount(of: user) == 2)
        }
    }

    /// `psql` holding the user's progress row in an open transaction for half a minute (or until its backend is
    /// terminated).
    private static func holdRow(of userID: Int) throws -> Process {
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        psql.arguments = [
            "psql", "-X", "-q", "-d", try LaurelTestDatabase.url(), "-c", "BEGIN",
            "-c", "SELECT 1 FROM laurel.progress WHERE user_id = \(userID) FOR UPDATE", "-c", "SELECT pg_sleep(30)", "-c", "ROLLBACK",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["PGAPPNAME"] = "laurel-tests-in-doubt-\(userID)"
        psql.environment = environment
        psql.standardOutput = FileHandle.nullDevice
        psql.standardError = FileHandle.nullDevice
        try psql.run()
        return psql
    }

    private static func waitForPID(_ sql: String) async throws -> Int? {
        var pid: Int?
        _ = try await Eventually.holds {
            pid = try await LaurelTestDatabase.scalar(sql).flatMap { Int($0) }
            return pid != nil
        }
        return pid
    }
}
