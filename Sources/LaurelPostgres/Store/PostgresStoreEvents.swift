import LaurelCore
import LaurelJSON
import LaurelStore
import Logging

/// Turns the database's `laurel_events` notifications (sent by the admin functions and by every write) into store
/// events.
public enum PostgresStoreEvents {
    public static let channel = "laurel_events"

    /// A listener on the store's channel, and the events it hears: one array for everything one read of its
    /// connection brought (under load, the commits of many users), so that the server's one hop to the task that
    /// follows them is made once for all of them. Start the listener; stop it when done.
    /// `ownBackends` are the backends of this process's own commits (its pool's). Their `written` notifications (the
    /// commits of users' writes, which this process's sessions decided and keep) are passed over unread: the sessions
    /// hold what they announce, and the writes deliver their own pushes. (A write whose commit failed without telling
    /// whether it was stored asks the store instead.) Their `committed` ones (the functions' commits: an accepted
    /// invite, a subscription push) are read for where the users stand.
    public static func listen(
        configuration: PostgresConfiguration, ownBackends: PostgresBackendRoster? = nil, logger: Logger
    ) -> (listener: PostgresNotificationListener, events: AsyncStream<[StoreEvent]>) {
        let (events, continuation) = AsyncStream.makeStream(of: [StoreEvent].self)
        let ownWrites = ownBackends.map { PostgresNotificationFilter(senders: $0, payloadPrefix: ownWritesPrefix) }
        let listener = PostgresNotificationListener(configuration: configuration, channels: [channel], ignoring: ownWrites, logger: logger) { heard in
            var batch: [StoreEvent] = []
            for event in heard {
                switch event {
                case .listening:
                    batch.append(.resumed)
                case .notification(let notification) where notification.channel == channel:
                    let own = ownBackends?.contains(notification.senderPID) ?? false
                    if let parsed = Self.events(from: notification.payload, ownCommits: own) {
                        batch.append(contentsOf: parsed)
                    } else {
                        logger.warning("ignored a malformed notification", metadata: ["payload": "\(notification.payload)"])
                    }
                case .notification:
                    continue
                }
            }
            if !batch.isEmpty { continuation.yield(batch) }
        }
        return (listener, events)
    }

    /// The events of an instance that has begun to hear the store's events, and of the instances answering it
    /// (``PostgresStore/announcePresence(greeting:)``).
    static let greeting = "instance_listening"
    static let answer = "instance_present"

    /// How a notification of users' writes begins (`laurel.commit_changes`, by way of `laurel.announce_commits`).
    static let ownWritesPrefix = #"{"event":"written","#

    /// The events of one notification; nil when it is not one this server knows. Of a notification of this process's
    /// own commits (`ownCommits`) only where its users stand is read, not what they announce.
    static func events(from payload: String, ownCommits: Bool = false) -> [StoreEvent]? {
        if ownCommits, let standings = CommittedStandings.read(payload) { return standings }
        guard case .object(let object)? = try? JSONParser.parse(payload), case .string(let name)? = object["event"] else { return nil }
        switch name {
        case "committed", "written":
            // Many users to a notification: {"at_us": ..., "users": [[user_id, version, last_seq], ...]}, and for a
            // write that announced its change or its pushes [user_id, version, last_seq, fact_seq, announcement].
            guard case .array(let commits)? = object["users"] else { return nil }
            // The transaction's time, which its pushes were stored with: without it, announced pushes are read back.
            let at = object["at_us"]?.intValue.map(PostgresTimestamp.date(microseconds:))
            // Written and not this process's own: another instance's sessions decided these writes.
            var events: [StoreEvent] = name == "written" && !ownCommits ? [.instanceElsewhere(greeting: false)] : []
            events.append(contentsOf: commits.lazy.compactMap { commit -> StoreEvent? in
                guard case .array(let values) = commit, values.count == 3 || values.count == 5, case .int(let user) = values[0],
                      case .int(let version) = values[1], case .int(let lastSeq) = values[2] else { return nil }
                guard values.count == 5, !ownCommits else { return .committed(UserID(Int64(user)), version: Int64(version), lastSeq: Int64(lastSeq)) }
                let announced = values[4]
                // A change or pushes that cannot be read are left out: the session catches up by reading instead.
                let change = AnnouncedChangeJSON.announcesChange(announced)
                    ? try? AnnouncedChangeJSON.read(announced, factSeq: values[3].intValue.map(Int64.init)) : nil
                let pushes = at.flatMap { AnnouncedChangeJSON.pushes(announced, lastSeq: Int64(lastSeq), at: $0) } ?? []
                return .committed(UserID(Int64(user)), version: Int64(version), lastSeq: Int64(lastSeq), change: change, pushes: pushes)
            })
            return events
        case Self.greeting, Self.answer:
            return ownCommits ? [] : [.instanceElsewhere(greeting: name == Self.greeting)]
        case "tokens_revoked", "user_deleted":
            guard case .int(let id)? = object["user_id"] else { return nil }
            let user = UserID(Int64(id))
            return [name == "tokens_revoked" ? .tokensRevoked(user) : .userDeleted(user)]
        default:
            return nil
        }
    }
}
