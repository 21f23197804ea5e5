import LaurelCore
import LaurelJSON
import LaurelStore
import Logging

/// Turns the database's `laurel_events` notifications (sent by the admin functions and by every write) into store
/// events.
public enum PostgresStoreEvents {
    public static let channel = "laurel_events"

    public static func stream(from listener: PostgresNotificationListener, logger: Logger) -> AsyncStream<StoreEvent> {
        AsyncStream { continuation in
            let task = Task {
                for await heard in listener.events {
                    switch heard {
                    case .listening:
                        continuation.yield(.resumed)
                    case .notification(let notification) where notification.channel == channel:
                        if let events = events(from: notification.payload) {
                            for event in events { continuation.yield(event) }
                        } else {
                            logger.warning("ignored a malformed notification", metadata: ["payload": "\(notification.payload)"])
                        }
                    case .notification:
                        continue
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The events of one notification; nil when it is not one this server knows.
    static func events(from payload: String) -> [StoreEvent]? {
        guard case .object(let object)? = try? JSONParser.parse(payload), case .string(let name)? = object["event"] else { return nil }
        // Announced many users to a notification: {"users": [[user_id, number], ...]}.
        if case .array(let pairs)? = object["users"] {
            let numbered = pairs.compactMap { pair -> (UserID, Int64)? in
                guard case .array(let values) = pair, values.count == 2,
                      case .int(let user) = values[0], case .int(let number) = values[1] else { return nil }
                return (UserID(Int64(user)), Int64(number))
            }
            switch name {
            case "state_versions": return numbered.map { .stateVersion($0, version: $1) }
            case "pushes_stored": return numbered.map { .pushesStored($0, seq: $1) }
            default: return nil
            }
        }
        guard case .int(let id)? = object["user_id"] else { return nil }
        let user = UserID(Int64(id))
        switch name {
        case "tokens_revoked": return [.tokensRevoked(user)]
        case "user_deleted": return [.userDeleted(user)]
        case "pushes_stored":
            guard case .int(let seq)? = object["seq"] else { return nil }
            return [.pushesStored(user, seq: Int64(seq))]
        default: return nil
        }
    }
}
