#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Notifications a listener passes over unread: those sent by one of `senders` (a pool's backends) whose payload
/// begins with `payloadPrefix`. They are told apart on the bytes libpq hands over, before anything is made of them: a
/// process that hears every commit of its own pays for none of those it has no use for.
public struct PostgresNotificationFilter: Sendable {
    private let senders: PostgresBackendRoster
    private let prefixBytes: [CChar]

    public init(senders: PostgresBackendRoster, payloadPrefix: String) {
        self.senders = senders
        self.prefixBytes = payloadPrefix.utf8.map { CChar(bitPattern: $0) }
    }

    /// Whether a notification of `senderPID` with the NUL-terminated `payload` is passed over.
    func ignores(senderPID: Int32, payload: UnsafePointer<CChar>) -> Bool {
        // The prefix first: it is read without a lock, and most notifications a busy instance hears are its own.
        guard strncmp(payload, prefixBytes, prefixBytes.count) == 0 else { return false }
        return senders.contains(senderPID)
    }

    /// The same for a notification already read.
    func ignores(_ notification: PostgresNotification) -> Bool {
        notification.payload.withCString { ignores(senderPID: notification.senderPID, payload: $0) }
    }
}
