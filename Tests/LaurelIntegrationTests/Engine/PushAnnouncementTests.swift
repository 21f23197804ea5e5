import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore
import LaurelServer
import Testing
@testable import LaurelPostgres

/// A batch of LOG commits announces the pushes it stored in one notification, many users to it (sql/0017); every
/// instance reads that form and the one-user form other writers send.
@Suite struct PushAnnouncementTests {
    @Test func aBatchAnnouncesItsUsersPushesInOneNotification() async throws {
        let users = [
            try await LaurelTestDatabase.createUser("announce-a"), try await LaurelTestDatabase.createUser("announce-b"),
            try await LaurelTestDatabase.createUser("announce-c"),
        ]
        let pool = try await LogCommitTests.poolWithCatalog()
        var batch: [LogCommit] = []
        for (index, user) in users.enumerated() {
            let version = Int64(try await LaurelTestDatabase.count(
                "SELECT state_version FROM laurel.users WHERE id = $1::bigint", [.int(Int(user.id.rawValue))]))
            batch.append(try LogCommitTests.commit(
                user, version: version, logID: "announce-\(index)", pushes: [PushDraft(kind: .unlock, data: ["id": "first_exercise"])]))
        }
        let commits = batch
        let (results, notifications) = try await pool.withConnection { connection in
            _ = try connection.execute("LISTEN laurel_events")
            defer { _ = try? connection.execute("UNLISTEN *") }
            let results = try PostgresStore.storeLogs(commits, on: connection)
            _ = connection.consumeInput()
            return (results, connection.takeNotifications())
        }
        for result in results { guard case .success(.committed) = result else { Issue.record("not committed: \(result)"); return } }

        // Tests run side by side, so the channel also carries other users' announcements: only those that name
        // this batch's users count.
        let ours = Set(users.map(\.id))
        let pushEvents = notifications.compactMap { PostgresStoreEvents.events(from: $0.payload) }
            .map { events in
                events.compactMap { event -> (UserID, Int64)? in
                    if case .pushesStored(let user, let seq) = event, ours.contains(user) { return (user, seq) }
                    return nil
                }
            }
            .filter { !$0.isEmpty }
        #expect(pushEvents.count == 1, "one notification for the batch's pushes: \(notifications.map(\.payload))")
        let announced = Set(pushEvents.joined().filter { $0.1 == 1 }.map(\.0))
        #expect(announced == ours, "each user with the seq of its push")
    }

    @Test func bothFormsOfAPushAnnouncementAreRead() {
        #expect(PostgresStoreEvents.events(from: #"{"event":"pushes_stored","user_id":7,"seq":3}"#) == [.pushesStored(UserID(7), seq: 3)])
        #expect(PostgresStoreEvents.events(from: #"{"event":"pushes_stored","users":[[7,3],[9,12]]}"#)
            == [.pushesStored(UserID(7), seq: 3), .pushesStored(UserID(9), seq: 12)])
        #expect(PostgresStoreEvents.events(from: #"{"event":"state_versions","users":[[7,30]]}"#) == [.stateVersion(UserID(7), version: 30)])
    }
}
