import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore
import LaurelServer
import Testing
@testable import LaurelPostgres

/// A batch of commits announces where its users now stand (version and last push seq) in one notification, many
/// users to it; every instance reads it.
@Suite struct PushAnnouncementTests {
    @Test func aBatchAnnouncesItsUsersInOneNotification() async throws {
        let users = [
            try await LaurelTestDatabase.createUser("announce-a"), try await LaurelTestDatabase.createUser("announce-b"),
            try await LaurelTestDatabase.createUser("announce-c"),
        ]
        let pool = try await UserCommitTests.poolWithCatalog()
        let batch = users.enumerated().map { index, user in
            UserCommitTests.commit(
                user, version: 0, logID: "announce-\(index)", pushes: [PushDraft(kind: .unlock, data: #"{"id":"first_exercise"}"#)])
        }
        let (results, notifications) = try await Self.store(batch, listening: pool)
        for result in results { guard case .success(.committed) = result else { Issue.record("not committed: \(result)"); return } }

        // Tests run side by side, so the channel also carries other users' announcements: only those that name this
        // batch's users count.
        let ours = Set(users.map(\.id))
        let announcements = notifications.compactMap { PostgresStoreEvents.events(from: $0.payload) }
            .map { events in
                events.compactMap { event -> StoreEvent? in
                    if case .committed(let user, _, _, _, _) = event, ours.contains(user) { return event }
                    return nil
                }
            }
            .filter { !$0.isEmpty }
        #expect(announcements.count == 1, "one notification for the batch: \(notifications.map(\.payload))")
        // Each with the pushes it stored: the very rows a read of the store gives (seq, kind, data and time).
        let store = PostgresStore(pool: pool)
        var expected: [StoreEvent] = []
        for user in users {
            let stored = try await store.pushes(of: user.id, after: 0, limit: 10)
            #expect(stored.count == 1)
            expected.append(.committed(user.id, version: 1, lastSeq: 1, pushes: stored))
        }
        #expect(announcements.joined().map(\.self) == expected)
    }

    /// A batch that failed as a whole is stored again part by part, each in a subtransaction of its own: the parts
    /// that committed are announced once each, in the batch's one transaction, and a part that failed or was stale
    /// is not announced at all.
    @Test func aBatchRetriedPartByPartAnnouncesOnlyWhatCommitted() async throws {
        let good = try await LaurelTestDatabase.createUser("announce-retry-good")
        let broken = try await LaurelTestDatabase.createUser("announce-retry-broken")
        let stale = try await LaurelTestDatabase.createUser("announce-retry-stale")
        let alsoGood = try await LaurelTestDatabase.createUser("announce-retry-also-good")
        let pool = try await UserCommitTests.poolWithCatalog()
        let batch = [
            UserCommitTests.commit(good, version: 0, logID: "retry-good-1"),
            // An amount the table's check refuses: the batch fails, and then this part alone.
            UserCommitTests.commit(broken, version: 0, logID: "retry-broken-1", amount: 0),
            UserCommitTests.commit(stale, version: 4, logID: "retry-stale-1"),
            UserCommitTests.commit(alsoGood, version: 0, logID: "retry-also-good-1"),
        ]
        let (results, notifications) = try await Self.store(batch, listening: pool)
        guard case .success(.committed) = results[0], case .failure(.failed) = results[1], case .success(.stale) = results[2],
            case .success(.committed) = results[3]
        else {
            Issue.record("unexpected outcomes: \(results)")
            return
        }
        let ours = Set([good, broken, stale, alsoGood].map(\.id))
        let announced = notifications.compactMap { PostgresStoreEvents.events(from: $0.payload) }.joined().compactMap { event -> UserID? in
            if case .committed(let user, _, _, _, _) = event, ours.contains(user) { return user }
            return nil
        }
        #expect(announced.sorted { $0.rawValue < $1.rawValue } == [good.id, alsoGood.id].sorted { $0.rawValue < $1.rawValue })
    }

    /// A pool knows the backends its connections are served by, so that the notifications of its own commits are
    /// told from the others' (`PostgresNotification.senderPID`).
    @Test func aPoolKnowsItsBackends() async throws {
        let pool = try await LaurelTestDatabase.admin()
        let pid = try await pool.withConnection { connection in
            Int32(try connection.query("SELECT pg_backend_pid()::integer AS pid")[0].int("pid"))
        }
        #expect(pool.backends.contains(pid))
        #expect(!pool.backends.contains(0))
    }

    /// Commits that announce their changes go in as many notifications as their 8000 bytes take, and a commit whose
    /// change alone would not fit goes without it (the sessions elsewhere then read what it stored).
    @Test func announcedChangesFillAsManyNotificationsAsTheyNeed() async throws {
        let users = [
            try await LaurelTestDatabase.createUser("changes-a"), try await LaurelTestDatabase.createUser("changes-b"),
            try await LaurelTestDatabase.createUser("changes-c"),
        ]
        // Some 4,800 bytes of unlocks each for the first two (too many for one notification), some 9,600 for the last.
        func change(unlocks: Int) -> AnnouncedChange {
            let at = PostgresTimestamp.date(microseconds: PostgresTimestamp.microseconds(UserCommitTests.decidedAt))
            return AnnouncedChange(
                fact: nil, unlocked: Dictionary(uniqueKeysWithValues: (0..<unlocks).map { ("tpl_announced_\($0)", at) }), challenges: [:],
                figures: ProgressFigures(), allowance: LogAllowance(), latestScores: LatestDayScores())
        }
        let changes = [change(unlocks: 130), change(unlocks: 130), change(unlocks: 260)]
        let pool = try await UserCommitTests.poolWithCatalog()
        let batch = users.enumerated().map { index, user in
            UserCommitTests.commit(user, version: 0, logID: "changes-\(index)", announcing: { _, _ in changes[index] })
        }
        let (results, notifications) = try await Self.store(batch, listening: pool)
        var factSeqs: [Int64?] = []
        for result in results {
            guard case .success(.committed(_, _, let factSeq, _)) = result else { Issue.record("not committed: \(result)"); return }
            factSeqs.append(factSeq)
        }
        #expect(notifications.allSatisfy { $0.payload.utf8.count < 8000 })
        let ours = Set(users.map(\.id))
        let announced = notifications.compactMap { PostgresStoreEvents.events(from: $0.payload) }
            .map { events in
                events.filter { event in
                    if case .committed(let user, _, _, _, _) = event { return ours.contains(user) }
                    return false
                }
            }
            .filter { !$0.isEmpty }
        #expect(announced.count == 2, "\(announced.map(\.count))")
        let expected = changes.indices.map { changes[$0].with(factSeq: factSeqs[$0]) }
        #expect(announced.joined().map(\.self) == [
            .committed(users[0].id, version: 1, lastSeq: 0, change: expected[0]),
            .committed(users[1].id, version: 1, lastSeq: 0, change: expected[1]),
            .committed(users[2].id, version: 1, lastSeq: 0),
        ])
    }

    /// Stores `batch` in one statement on a connection that listens to the store's channel, and what it heard.
    static func store(_ batch: [UserCommit], listening pool: PostgresPool) async throws
        -> ([Result<CommitOutcome, StoreError>], [PostgresNotification]) {
        try await pool.withConnection { connection in
            _ = try connection.execute("LISTEN laurel_events")
            defer { _ = try? connection.execute("UNLISTEN *") }
            let results = try PostgresStore.storeCommits(batch, on: connection)
            _ = connection.consumeInput()
            return (results, connection.takeNotifications())
        }
    }
}
