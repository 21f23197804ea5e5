import Foundation
import LaurelCore
import LaurelStore
import Logging
import Synchronization
import Testing
@testable import LaurelPostgres

/// An instance passes over the notifications of its own users' writes, unread (its sessions decided them and keep
/// what they decided; its writes deliver their own pushes), and follows everything else: the commits of the
/// functions it calls itself (an accepted invite, a subscription push), and every other instance's writes.
@Suite struct OwnWriteNotificationTests {
    @Test func anInstancePassesOverItsOwnWritesOnly() async throws {
        let ownWrite = try await LaurelTestDatabase.createUser("own-write")
        let ownFunction = try await LaurelTestDatabase.createUser("own-function")
        let otherWrite = try await LaurelTestDatabase.createUser("other-write")
        let own = try await UserCommitTests.poolWithCatalog()
        let logger = Logger(label: "laurel.tests.own-writes")
        let other = PostgresPool(configuration: try LaurelTestDatabase.configuration("laurel-tests-other-instance"), size: 1, logger: logger)
        let (listener, events) = PostgresStoreEvents.listen(
            configuration: try LaurelTestDatabase.configuration("laurel-tests-own-writes"), ownBackends: own.backends, logger: logger)
        let heard = Mutex<[StoreEvent]>([])
        let following = Task { for await batch in events { heard.withLock { $0.append(contentsOf: batch) } } }
        listener.start()
        // The listener LISTENs before it says so: what is committed after this is heard.
        #expect(try await Eventually.holds { heard.withLock { $0.contains(.resumed) } })

        let written = try await own.withConnection { connection in
            try PostgresStore.storeCommits([UserCommitTests.commit(ownWrite, version: 0, logID: "own-write-1")], on: connection)
        }
        guard case .success(.committed)? = written.first else { Issue.record("not committed: \(written)"); return }
        _ = try await own.withConnection { connection in
            try connection.query(
                "SELECT laurel.announce_commits(ARRAY[laurel.announced_commit($1::bigint, 7, 3, NULL, NULL)])", [.int(Int(ownFunction.id.rawValue))])
        }
        let elsewhere = try await other.withConnection { connection in
            try PostgresStore.storeCommits([UserCommitTests.commit(otherWrite, version: 0, logID: "other-write-1")], on: connection)
        }
        guard case .success(.committed)? = elsewhere.first else { Issue.record("not committed: \(elsewhere)"); return }

        func users(_ events: [StoreEvent]) -> Set<UserID> {
            Set(events.compactMap { event in
                if case .committed(let user, _, _, _, _) = event { return user }
                return nil
            })
        }
        // Notifications arrive in commit order: once the last two are heard, the first would have been.
        #expect(try await Eventually.holds { users(heard.withLock { $0 }).isSuperset(of: [ownFunction.id, otherWrite.id]) })
        #expect(!users(heard.withLock { $0 }).contains(ownWrite.id))
        #expect(heard.withLock { $0 }.contains(.committed(ownFunction.id, version: 7, lastSeq: 3)))

        await listener.stop()
        following.cancel()
        await other.close()
    }
}
