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
        let (results, notifications) = try await pool.withConnection { connection in
            _ = try connection.execute("LISTEN laurel_events")
            defer { _ = try? connection.execute("UNLISTEN *") }
            let results = try PostgresStore.storeCommits(batch, on: connection)
            _ = connection.consumeInput()
            return (results, connection.takeNotifications())
        }
        for result in results { guard case .success(.committed) = result else { Issue.record("not committed: \(result)"); return } }

        // Tests run side by side, so the channel also carries other users' announcements: only those that name this
        // batch's users count.
        let ours = Set(users.map(\.id))
        let announcements = notifications.compactMap { PostgresStoreEvents.events(from: $0.payload) }
            .map { events in
                events.compactMap { event -> StoreEvent? in
                    if case .committed(let user, _, _) = event, ours.contains(user) { return event }
                    return nil
                }
            }
            .filter { !$0.isEmpty }
        #expect(announcements.count == 1, "one notification for the batch: \(notifications.map(\.payload))")
        #expect(announcements.joined().map(\.self) == users.map { StoreEvent.committed($0.id, version: 1, lastSeq: 1) })
    }
}
