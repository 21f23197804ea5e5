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
    /// `instance`, the name this process's pool connections give as `laurel.instance`, is registered by the listener
    /// after every LISTEN (`laurel.register_instance`, before `.resumed`) and removed when it stops: other instances
    /// announce their writes only while some other instance is registered (`laurel.commit_changes`).
    public static func listen(
        configuration: PostgresConfiguration, ownBackends: PostgresBackendRoster? = nil, instance: String? = nil, logger: Logger
    ) -> (listener: PostgresNotificationListener, events: AsyncStream<[StoreEvent]>) {
        let (events, continuation) = AsyncStream.makeStream(of: [StoreEvent].self)
        let ownWrites = ownBackends.map { PostgresNotificationFilter(senders: $0, payloadPrefix: ownWritesPrefix) }
        let presence = instance.map { name in
            ListenerPresence(
                enter: ("SELECT laurel.register_instance($1::text)", [.text(name)]),
                leave: ("SELECT laurel.unregister_instance($1::text)", [.text(name)]))
        }
        let listener = PostgresNotificationListener(
            configuration: configuration, channels: [channel], ignoring: ownWrites, presence: presence, logger: logger
        ) { heard in
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
        // Nearly every notification is one of commits, read without a tree (CommitNotification); the rest are rare.
        do {
            if let commits = try CommitNotification.events(payload, ownCommits: ownCommits) { return commits }
        } catch {
            return nil
        }
        guard case .object(let object)? = try? JSONParser.parse(payload), case .string(let name)? = object["event"] else { return nil }
        switch name {
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
