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

    /// A notification of this process's own commits is read for where its users stand only: what its commits announce
    /// (a change, pushes) is passed over, brackets and quotes in strings included.
    @Test func ownCommitsAreReadForWhereTheirUsersStandOnly() {
        let announced = #"{"figures":{"xp":5},"pushes":[["UNLOCK","{\"id\":\"a]}\\\"\",\"n\":[1,{}]}"],["LEVEL","{}"]]}"#
        let payload = #"{"event":"committed","at_us":1795000000123456,"users":[[1,7,3],[2,5,12,42,"# + announced + #"],[3,9,4,null,{}],[4, 2, 1]]}"#
        let standings: [StoreEvent] = [
            .committed(UserID(1), version: 7, lastSeq: 3), .committed(UserID(2), version: 5, lastSeq: 12),
            .committed(UserID(3), version: 9, lastSeq: 4), .committed(UserID(4), version: 2, lastSeq: 1),
        ]
        #expect(PostgresStoreEvents.events(from: payload, ownCommits: true) == standings)
        // Read in full, the second commit's pushes come with it (its change is not one this server can read).
        let general = PostgresStoreEvents.events(from: payload)
        #expect(general?.count == 4)
        if case .committed(_, _, _, nil, let pushes)? = general?[1] { #expect(pushes.map(\.seq) == [11, 12]) } else { Issue.record("\(String(describing: general))") }
        // Spaces after the colons change nothing.
        let spaced = #"{"event": "committed", "at_us": 1, "users": [[2, 5, 12, 42, "# + announced + "]]}"
        #expect(PostgresStoreEvents.events(from: spaced, ownCommits: true) == [.committed(UserID(2), version: 5, lastSeq: 12)])
        // A commit of another shape is left out; text that is not JSON is no notification at all.
        #expect(PostgresStoreEvents.events(from: #"{"event":"committed","users":[[1,7],[2,5,1]]}"#, ownCommits: true)
            == [.committed(UserID(2), version: 5, lastSeq: 1)])
        for broken in [#"{"event":"committed","users":[[1,7,3,4,{"a":"]}"#, #"{"event":"committed","users":[[1,7,3]]"#,
                       #"{"event":"committed","users":[[1,7,3] [2,5,1]]}"#, #"{"event":"committed"}"#] {
            #expect(PostgresStoreEvents.events(from: broken, ownCommits: true) == nil, "\(broken)")
            #expect(PostgresStoreEvents.events(from: broken) == nil, "\(broken)")
        }
    }

    /// An instance that begins to hear the events greets the others, and each answers: each hears of the others, not
    /// of itself.
    @Test func instancesGreetAndAnswerEachOther() {
        #expect(PostgresStoreEvents.events(from: #"{"event":"instance_listening"}"#) == [.instanceElsewhere(greeting: true)])
        #expect(PostgresStoreEvents.events(from: #"{"event":"instance_present"}"#) == [.instanceElsewhere(greeting: false)])
        #expect(PostgresStoreEvents.events(from: #"{"event":"instance_listening"}"#, ownCommits: true) == [])
        #expect(PostgresStoreEvents.events(from: #"{"event":"instance_present"}"#, ownCommits: true) == [])
    }

    @Test func operatorsEventsNameOneUser() {
        #expect(PostgresStoreEvents.events(from: #"{"event":"tokens_revoked","user_id":5}"#) == [.tokensRevoked(UserID(5))])
        #expect(PostgresStoreEvents.events(from: #"{"event":"user_deleted","user_id":5}"#) == [.userDeleted(UserID(5))])
        #expect(PostgresStoreEvents.events(from: #"{"event":"something_else","user_id":5}"#) == nil)
        #expect(PostgresStoreEvents.events(from: "not json") == nil)
    }

    /// The filter reads only the payload's first bytes and the sender: an own write's notification, and no other.
    @Test func theFilterTellsOwnWritesByPrefixAndSender() {
        let roster = PostgresBackendRoster()
        roster.opened(4242)
        let filter = PostgresNotificationFilter(senders: roster, payloadPrefix: PostgresStoreEvents.ownWritesPrefix)
        let write = #"{"event":"written","at_us":1,"users":[[1,2,0]]}"#
        #expect(filter.ignores(PostgresNotification(channel: "laurel_events", payload: write, senderPID: 4242)))
        #expect(!filter.ignores(PostgresNotification(channel: "laurel_events", payload: write, senderPID: 4243)))
        let function = #"{"event":"committed","at_us":1,"users":[[1,2,0]]}"#
        #expect(!filter.ignores(PostgresNotification(channel: "laurel_events", payload: function, senderPID: 4242)))
        #expect(!filter.ignores(PostgresNotification(channel: "laurel_events", payload: #"{"event":"writ"#, senderPID: 4242)))
        // Whoever wrote it, every instance reads a write's notification like a function's commit, after telling that
        // another instance wrote it.
        #expect(PostgresStoreEvents.events(from: write) == [.instanceElsewhere(greeting: false), .committed(UserID(1), version: 2, lastSeq: 0)])
        #expect(PostgresStoreEvents.events(from: function) == [.committed(UserID(1), version: 2, lastSeq: 0)])
    }
}
