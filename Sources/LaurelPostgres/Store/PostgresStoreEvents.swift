import LaurelCore
import LaurelJSON
import LaurelStore
import Logging

/// Turns the database's `laurel_events` notifications (sent by the admin functions) into store events.
public enum PostgresStoreEvents {
    public static let channel = "laurel_events"

    public static func stream(from listener: PostgresNotificationListener, logger: Logger) -> AsyncStream<StoreEvent> {
        AsyncStream { continuation in
            let task = Task {
                for await notification in listener.notifications where notification.channel == channel {
                    if let event = event(from: notification.payload) {
                        continuation.yield(event)
                    } else {
                        logger.warning("ignored a malformed notification", metadata: ["payload": "\(notification.payload)"])
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func event(from payload: String) -> StoreEvent? {
        guard case .object(let object)? = try? JSONParser.parse(payload),
              case .string(let name)? = object["event"], case .int(let id)? = object["user_id"] else { return nil }
        let user = UserID(Int64(id))
        switch name {
        case "tokens_revoked": return .tokensRevoked(user)
        case "user_deleted": return .userDeleted(user)
        case "pushes_stored":
            guard case .int(let seq)? = object["seq"] else { return nil }
            return .pushesStored(user, seq: Int64(seq))
        default: return nil
        }
    }
}
