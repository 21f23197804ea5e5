import Foundation
import LaurelCore
import Logging

/// Receives PostgreSQL `NOTIFY` messages on a dedicated connection and thread and delivers them
/// as an `AsyncStream`, or to a handler on that thread.
///
/// When the connection is lost, the listener reconnects (waiting 100 ms, doubling to 5 s while
/// attempts fail) and LISTENs again. Notifications sent while it was disconnected are lost, as
/// PostgreSQL keeps none for absent listeners: each LISTEN that succeeds is announced in the stream
/// (`.listening`) before the notifications that follow it, so a consumer can read again what it may
/// have missed.
public final class PostgresNotificationListener: Sendable {
    /// What the listener hears, in order.
    public enum Event: Sendable, Hashable {
        /// The listener (re)connected and LISTENs: from here on no notification is missed, and any sent
        /// before (while it was disconnected, or before it first connected) may have been.
        case listening
        case notification(PostgresNotification)
    }

    /// Every notification on the channels in arrival order, each LISTEN before them. One consumer
    /// should iterate it; it ends after `stop()`. It buffers without limit, so the consumer should keep up.
    /// A listener made with a handler delivers nothing here: the stream ends at once.
    public let events: AsyncStream<Event>

    private let continuation: AsyncStream<Event>.Continuation
    private let loop: ListenerLoop

    /// A listener whose events arrive in ``events``.
    /// - Parameters:
    ///   - configuration: where to connect.
    ///   - channels: channel names, exactly as given to `pg_notify` (case matters).
    ///   - logger: receives connection losses and reconnects.
    public convenience init(configuration: PostgresConfiguration, channels: [String], logger: Logger) {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        self.init(configuration: configuration, channels: channels, logger: logger, stream: stream, continuation: continuation) { heard in
            for event in heard { continuation.yield(event) }
        }
    }

    /// A listener that hands what it hears to `handler`, on the listening thread, in arrival order: all the
    /// notifications one read of the connection brings at once (a stream would cost a hop to another thread for
    /// each of them, and this listener hears of every commit). The handler must return quickly. Notifications
    /// `filter` passes over are dropped unread.
    /// `presence`, when given, is said after every LISTEN and before the connection closes at a stop.
    public convenience init(
        configuration: PostgresConfiguration, channels: [String], ignoring filter: PostgresNotificationFilter? = nil,
        presence: ListenerPresence? = nil, logger: Logger, handler: @escaping @Sendable ([Event]) -> Void
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        continuation.finish()
        self.init(
            configuration: configuration, channels: channels, filter: filter, presence: presence, logger: logger, stream: stream,
            continuation: continuation, deliver: handler)
    }

    private init(
        configuration: PostgresConfiguration, channels: [String], filter: PostgresNotificationFilter? = nil,
        presence: ListenerPresence? = nil, logger: Logger, stream: AsyncStream<Event>, continuation: AsyncStream<Event>.Continuation,
        deliver: @escaping @Sendable ([Event]) -> Void
    ) {
        self.events = stream
        self.continuation = continuation
        self.loop = ListenerLoop(
            configuration: configuration, channels: channels, filter: filter, presence: presence, logger: logger, deliver: deliver,
            control: ListenerControl())
    }

    deinit {
        loop.control.requestStop()
        continuation.finish()
    }

    /// Starts the listening thread; it connects in the background. Calling it again does nothing.
    public func start() {
        guard loop.control.markStarted() else { return }
        let loop = self.loop
        Thread { loop.run() }.start()
    }

    /// Stops the thread (within about a quarter of a second, or one connect timeout while it is
    /// connecting), closes the connection and ends `notifications`.
    public func stop() async {
        loop.control.requestStop()
        await loop.control.waitUntilStopped()
        continuation.finish()
    }
}

/// The listening thread's loop: connect and LISTEN, then wait for input with `poll` in short
/// slices so that a stop request is seen promptly.
struct ListenerLoop: Sendable {
    let configuration: PostgresConfiguration
    let channels: [String]
    let filter: PostgresNotificationFilter?
    let presence: ListenerPresence?
    let logger: Logger
    let deliver: @Sendable ([PostgresNotificationListener.Event]) -> Void
    let control: ListenerControl

    static let pollSliceMilliseconds: Int32 = 250

    func run() {
        LibPQThreadAudit.markCurrentThreadAsDatabaseThread(named: "laurel-listen")
        var backoff = ReconnectBackoff()
        while !control.isStopRequested {
            let connection: PostgresConnection
            do {
                connection = try connectAndListen()
            } catch {
                backoff.recordFailure(error.connectionMessage, at: .now)
                let delay = backoff.delay ?? ReconnectBackoff.initialDelay
                logger.warning(
                    "Notification listener could not connect",
                    metadata: ["postgres.error": "\(error.connectionMessage)", "postgres.retry_after": "\(delay)"]
                )
                control.sleep(for: delay)
                continue
            }
            backoff.recordSuccess()
            connection.logger.debug("Listening for notifications", metadata: ["postgres.channels": "\(channels)"])
            deliver([.listening])
            receive(on: connection)
            if control.isStopRequested, let leave = presence?.leave {
                do {
                    _ = try connection.query(leave.sql, leave.parameters)
                } catch {
                    connection.logger.warning("Notification listener could not say it leaves", metadata: ["postgres.error": "\(error)"])
                }
            }
        }
        control.markStopped()
    }

    private func connectAndListen() throws(PostgresError) -> PostgresConnection {
        let connection = try PostgresConnection.connect(configuration: configuration, logger: logger)
        if !channels.isEmpty {
            try connection.simpleQuery(channels.map { "LISTEN \(quotedIdentifier($0))" }.joined(separator: "; "))
        }
        if let enter = presence?.enter {
            _ = try connection.query(enter.sql, enter.parameters)
        }
        return connection
    }

    /// Delivers notifications until the connection fails or a stop is requested.
    private func receive(on connection: PostgresConnection) {
        while !control.isStopRequested {
            switch connection.waitForInput(timeoutMilliseconds: Self.pollSliceMilliseconds) {
            case .timedOut:
                continue
            case .failed(let reason):
                connection.logger.warning("Notification listener lost its connection", metadata: ["postgres.error": "\(reason)"])
                return
            case .readable:
                let healthy = connection.consumeInput()
                let notifications = connection.takeNotifications(ignoring: filter)
                if !notifications.isEmpty { deliver(notifications.map(PostgresNotificationListener.Event.notification)) }
                if !healthy {
                    connection.logger.warning(
                        "Notification listener lost its connection",
                        metadata: ["postgres.error": "\(connection.lastErrorMessage ?? "connection closed")"]
                    )
                    return
                }
            }
        }
    }

    private func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Start, stop and sleep coordination between a listener and its thread.
final class ListenerControl: @unchecked Sendable {
    private enum State {
        case idle, running, stopping, stopped
    }

    private let condition = NSCondition()
    private var state = State.idle
    private var stopWaiters: [CheckedContinuation<Void, Never>] = []

    /// True when the caller should start the thread (the first call, before any stop).
    func markStarted() -> Bool {
        condition.withLock {
            guard state == .idle else { return false }
            state = .running
            return true
        }
    }

    var isStopRequested: Bool {
        condition.withLock { state != .running }
    }

    func requestStop() {
        condition.withLock {
            switch state {
            case .idle: state = .stopped
            case .running: state = .stopping
            case .stopping, .stopped: break
            }
            condition.broadcast()
        }
    }

    /// Sleeps for `duration`, or less when a stop is requested meanwhile.
    func sleep(for duration: Duration) {
        let deadline = Date(timeIntervalSinceNow: duration.inSeconds)
        condition.withLock {
            while state == .running && condition.wait(until: deadline) {}
        }
    }

    func markStopped() {
        let waiters: [CheckedContinuation<Void, Never>] = condition.withLock {
            state = .stopped
            defer { stopWaiters.removeAll() }
            return stopWaiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let stopped = condition.withLock {
                if state == .stopped { return true }
                stopWaiters.append(continuation)
                return false
            }
            if stopped {
                continuation.resume()
            }
        }
    }
}
