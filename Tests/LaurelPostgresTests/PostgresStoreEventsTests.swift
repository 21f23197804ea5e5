import LaurelCore
import LaurelStore
import Testing

@testable import LaurelPostgres

/// The store's notifications as the server hears them.
@Suite struct PostgresStoreEventsTests {
    @Test func commitsAnnounceVersionsAndPushSeqsManyUsersToANotification() {
        let events = PostgresStoreEvents.events(from: #"{"event": "committed", "users": [[1, 7, 3], [2, 1, 0]]}"#)
        #expect(events == [.committed(UserID(1), version: 7, lastSeq: 3), .committed(UserID(2), version: 1, lastSeq: 0)])
    }

    @Test func operatorsEventsNameOneUser() {
        #expect(PostgresStoreEvents.events(from: #"{"event":"tokens_revoked","user_id":5}"#) == [.tokensRevoked(UserID(5))])
        #expect(PostgresStoreEvents.events(from: #"{"event":"user_deleted","user_id":5}"#) == [.userDeleted(UserID(5))])
        #expect(PostgresStoreEvents.events(from: #"{"event":"something_else","user_id":5}"#) == nil)
        #expect(PostgresStoreEvents.events(from: "not json") == nil)
    }
}
