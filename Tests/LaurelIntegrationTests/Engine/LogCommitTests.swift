import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore
import LaurelServer
import Testing
@testable import LaurelPostgres

/// LOGs evaluated in a session are stored as `LogCommit`s: many users' commits in one statement and one
/// transaction, each checked against the user's state version, each user's part failing alone.
@Suite struct LogCommitTests {
    @Test func oneUsersFailureInABatchFailsOnlyThatUser() async throws {
        let good = try await LaurelTestDatabase.createUser("batch-good")
        let broken = try await LaurelTestDatabase.createUser("batch-broken")
        let stale = try await LaurelTestDatabase.createUser("batch-stale")
        let retried = try await LaurelTestDatabase.createUser("batch-retried")
        let gone = try await LaurelTestDatabase.createUser("batch-gone")
        let pool = try await Self.poolWithCatalog()

        // A log the retry will repeat, stored first on its own.
        let first = try await pool.withConnection { connection in
            try PostgresStore.storeLogs([try Self.commit(retried, version: 0, logID: "retry-me")], on: connection)
        }
        #expect(try first[0].get() != .stale)
        try await LaurelTestDatabase.scalar("SELECT laurel.delete_user($1::text)", [.text(gone.name)])

        let batch = [
            try Self.commit(good, version: 0, logID: "good-1", pushes: [PushDraft(kind: .unlock, data: ["id": "first_exercise"])]),
            // No such activity: the foreign key fails this part.
            try Self.commit(broken, version: 0, logID: "broken-1", activity: "no-such-activity"),
            try Self.commit(stale, version: 7, logID: "stale-1"),
            try Self.commit(retried, version: 1, logID: "retry-me"),
            try Self.commit(gone, version: 0, logID: "gone-1"),
        ]
        let results = try await pool.withConnection { connection in try PostgresStore.storeLogs(batch, on: connection) }

        guard case .success(.committed(let version, _, let pushes)) = results[0] else {
            Issue.record("the good part was not committed: \(results[0])")
            return
        }
        #expect(version == 1)
        #expect(pushes.map(\.seq) == [1] && pushes.map(\.kind) == [.unlock])
        guard case .failure(.failed(let reason)) = results[1] else {
            Issue.record("the broken part did not fail: \(results[1])")
            return
        }
        #expect(reason.contains("23503"), "a foreign key violation: \(reason)")
        #expect(try results[2].get() == .stale)
        #expect(try results[3].get() == .duplicate)
        #expect(results[4] == .failure(.unknownUser))

        // What the failed, stale and duplicate parts would have written is not there; the good part is whole.
        #expect(try await Self.versionAndLogs(good) == "1/1")
        #expect(try await Self.versionAndLogs(broken) == "0/0")
        #expect(try await Self.versionAndLogs(stale) == "0/0")
        #expect(try await Self.versionAndLogs(retried) == "1/1")
        #expect(try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.pushes WHERE user_id = $1::bigint", [.int(Int(good.id.rawValue))]) == 1)
        #expect(try await LaurelTestDatabase.count(
            "SELECT coalesce(max(xp), 0) FROM laurel.progress WHERE user_id = $1::bigint", [.int(Int(broken.id.rawValue))]) == 0)
    }

    @Test func aBatchWithoutFailuresTellsStaleDuplicateAndCommittedApart() async throws {
        let good = try await LaurelTestDatabase.createUser("set-good")
        let stale = try await LaurelTestDatabase.createUser("set-stale")
        let retried = try await LaurelTestDatabase.createUser("set-retried")
        let pool = try await Self.poolWithCatalog()
        _ = try await pool.withConnection { connection in
            try PostgresStore.storeLogs([try Self.commit(retried, version: 0, logID: "again")], on: connection)
        }
        let batch = [
            try Self.commit(retried, version: 1, logID: "again"),
            try Self.commit(good, version: 0, logID: "set-1", pushes: [PushDraft(kind: .unlock, data: ["id": "first_exercise"])]),
            try Self.commit(stale, version: 3, logID: "set-2"),
        ]
        let results = try await pool.withConnection { connection in try PostgresStore.storeLogs(batch, on: connection) }
        #expect(try results[0].get() == .duplicate)
        guard case .success(.committed(version: 1, logSeq: _, let pushes)) = results[1] else {
            Issue.record("not committed: \(results[1])")
            return
        }
        #expect(pushes.map(\.seq) == [1])
        #expect(try results[2].get() == .stale)
        #expect(try await Self.versionAndLogs(good) == "1/1")
        #expect(try await Self.versionAndLogs(stale) == "0/0")
        #expect(try await Self.versionAndLogs(retried) == "1/1")
        #expect(try await LaurelTestDatabase.scalar(
            "SELECT data->>'id' FROM laurel.pushes WHERE user_id = $1::bigint AND seq = 1", [.int(Int(good.id.rawValue))]) == "first_exercise")
    }

    @Test func commitsArrivingTogetherShareBatchesAndAllLand() async throws {
        _ = try await Self.poolWithCatalog()
        var users: [TestUser] = []
        for _ in 0..<40 { users.append(try await LaurelTestDatabase.createUser("batch-many")) }
        let pool = PostgresPool(configuration: try LaurelTestDatabase.configuration(), size: 2, logger: LaurelTestDatabase.logger)
        let store = PostgresStore(pool: pool, maxLogBatch: 8, logFlushers: 1)
        let outcomes = try await withThrowingTaskGroup(of: LogCommit.Outcome.self) { group in
            for user in users {
                group.addTask { try await store.commitLog(try Self.commit(user, version: 0, logID: "many-1")) }
            }
            var outcomes: [LogCommit.Outcome] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        await pool.close()
        #expect(outcomes.count == users.count)
        #expect(outcomes.allSatisfy { if case .committed(version: 1, logSeq: _, pushes: []) = $0 { true } else { false } })
        for user in users { #expect(try await Self.versionAndLogs(user) == "1/1") }
    }

    @Test func aStoredEngineStateIsNeverReplacedByAnOlderOne() async throws {
        let user = try await LaurelTestDatabase.createUser("checkpoint")
        let pool = try await Self.poolWithCatalog()
        _ = try await pool.withConnection { connection in
            try PostgresStore.storeLogs([try Self.commit(user, version: 0, logID: "first")], on: connection)
        }
        let store = PostgresStore(pool: pool)
        let stored = { try await LaurelTestDatabase.scalar(
            "SELECT state_version || ':' || (state->>'mark') FROM laurel.progress WHERE user_id = $1::bigint",
            [.int(Int(user.id.rawValue))]) }
        try await store.saveProgressState(user: user.id, state: #"{"mark":"five"}"#, version: 5)
        #expect(try await stored() == "5:five")
        try await store.saveProgressState(user: user.id, state: #"{"mark":"three"}"#, version: 3)
        #expect(try await stored() == "5:five")
        try await store.saveProgressState(user: user.id, state: #"{"mark":"seven"}"#, version: 7)
        #expect(try await stored() == "7:seven")
    }

    /// The admin pool, with the built-in activities the commits log installed.
    static func poolWithCatalog() async throws -> PostgresPool {
        let pool = try await LaurelTestDatabase.admin()
        try await PostgresStore(pool: pool).installCatalog(try ShippedCatalogs.load("standfit"))
        return pool
    }

    /// A commit of one log of `activity` for `user`, evaluated against `version`.
    static func commit(
        _ user: TestUser, version: Int64, logID: String, activity: String = "squats", pushes: [PushDraft] = []
    ) throws -> LogCommit {
        let at = Date(timeIntervalSince1970: 1_790_000_000)
        let log = StoredLog(
            id: logID, activityID: activity, amount: 5, at: at, day: LocalDay(year: 2026, month: 9, day: 21)!, note: nil, requestedAt: at,
            response: ["log": ["id": .string(logID)], "duplicate": false], localHour: 12)
        return LogCommit(
            user: user.id, expectedVersion: version, log: log, unlocks: pushes.isEmpty ? [] : ["first_exercise"], decidedAt: at,
            pushes: pushes, figures: StoredProgress(xp: 15, shownStreak: StreakState(current: 1, longest: 1)))
    }

    /// The user's state version and number of logs, as "version/logs".
    static func versionAndLogs(_ user: TestUser) async throws -> String? {
        try await LaurelTestDatabase.scalar(
            """
            SELECT u.state_version || '/' || (SELECT count(*) FROM laurel.logs l WHERE l.user_id = u.id)
              FROM laurel.users u WHERE u.id = $1::bigint
            """, [.int(Int(user.id.rawValue))])
    }
}
