import CLibPQ
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the server sent while no statement was running: asynchronous notifications, and the
/// error and end-of-file a terminated backend leaves behind.
extension PostgresConnection {
    enum InputReadiness {
        case readable
        case timedOut
        case failed(String)
    }

    /// Waits up to `timeoutMilliseconds` for the server to send something.
    func waitForInput(timeoutMilliseconds: Int32) -> InputReadiness {
        LibPQThreadAudit.check()
        let socket = PQsocket(raw)
        guard socket >= 0 else { return .failed("the connection has no socket") }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeoutMilliseconds)
        if ready > 0 { return .readable }
        if ready == 0 || errno == EINTR { return .timedOut }
        return .failed("poll failed with errno \(errno)")
    }

    /// Reads what has arrived; false when the connection turned out to be broken.
    func consumeInput() -> Bool {
        LibPQThreadAudit.check()
        return PQconsumeInput(raw) == 1 && !isBroken
    }

    /// Notifications read so far, in the order they arrived, but those `filter` passes over.
    func takeNotifications(ignoring filter: PostgresNotificationFilter? = nil) -> [PostgresNotification] {
        LibPQThreadAudit.check()
        var notifications: [PostgresNotification] = []
        while let notify = PQnotifies(raw) {
            if let filter, filter.ignores(senderPID: notify.pointee.be_pid, payload: notify.pointee.extra) {
                PQfreemem(notify)
                continue
            }
            notifications.append(PostgresNotification(
                channel: String(cString: notify.pointee.relname),
                payload: String(cString: notify.pointee.extra),
                senderPID: notify.pointee.be_pid
            ))
            PQfreemem(notify)
        }
        return notifications
    }

    /// Whether an idle connection can take new work. A backend that was terminated, or a server
    /// that restarted, has left an error and end-of-file on the socket; reading them now lets the
    /// pool replace the connection before a statement fails on it.
    func isUsableAfterIdle() -> Bool {
        // One read may take the error but not yet the end-of-file behind it, so read until the
        // socket is quiet (a bounded number of times: a chatty server must not stall the pool).
        for _ in 0..<8 {
            guard !isBroken else { return false }
            switch waitForInput(timeoutMilliseconds: 0) {
            case .timedOut:
                return true
            case .failed:
                return false
            case .readable:
                guard consumeInput() else { return false }
                _ = takeNotifications()  // pool connections do not LISTEN; nothing waits for these
            }
        }
        return !isBroken
    }

    /// Brings a connection back to idle after a unit of work: a transaction the work left open is
    /// rolled back. False when the connection should be discarded instead (broken, or stuck in a
    /// state such as COPY).
    func resetAfterUse() -> Bool {
        LibPQThreadAudit.check()
        guard !isBroken else { return false }
        switch PQtransactionStatus(raw) {
        case PQTRANS_IDLE:
            return true
        case PQTRANS_INTRANS, PQTRANS_INERROR:
            logger.debug("Rolling back a transaction left open by finished work")
            do {
                try simpleQuery("ROLLBACK")
            } catch {
                return false
            }
            return PQtransactionStatus(raw) == PQTRANS_IDLE
        default:
            return false
        }
    }
}
