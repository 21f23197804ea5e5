import LaurelJSON
import LaurelProtocol
import NIOCore
import Synchronization

/// Why a connection's lifecycle ended it (`auth_timeout`, `idle`), for the connection's own writer to say in its
/// `BYE`, after every line written before.
final class ConnectionExpiry: Sendable {
    private let noted = Mutex<String?>(nil)

    var reason: String? { noted.withLock { $0 } }

    /// Keeps the first reason given.
    func note(_ reason: String) {
        noted.withLock { if $0 == nil { $0 = reason } }
    }
}

/// Ends connections that should not stay open: one that did not authenticate within `authTimeout` (an AUTH taken
/// before it ran out is answered first, and ends the connection only if it did not authenticate it), one idle
/// for `idleTimeout` (nothing read and nothing written: a request the server takes long over, or a push, is not
/// idleness), and one whose server shuts down. In each case it only stops reading: the requests already
/// received are answered, then the connection's one ordered writer says `BYE` (with the reason noted in
/// `expiry`, or `shutdown`) and closes, so a `BYE` never overtakes an answer or a push. Timers live on the
/// channel's event loop, so they cost no task per connection.
final class ConnectionLifecycleHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = InboundFrame
    typealias InboundOut = InboundFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Sent down the pipeline by the connection once AUTH succeeded.
    struct Authenticated: Sendable {}
    /// Sent by the connection when it takes an AUTH to answer, and when it has answered it (whatever the answer): the
    /// client sent AUTH in time if it was read before the auth timeout (protocol.md), however long the server takes
    /// to answer it (AUTHs from one address take turns on its allowance), so the timeout waits for its answer.
    struct AuthStarted: Sendable {}
    struct AuthAnswered: Sendable {}

    private let authTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let expiry: ConnectionExpiry
    private var authTimer: Scheduled<Void>?
    private var idleTimer: Scheduled<Void>?
    private var authenticated = false
    /// AUTHs taken and not yet answered.
    private var authsInFlight = 0
    /// The auth timeout passed while an AUTH was in flight: the connection ends at the next AUTH answered unless
    /// that one authenticated it (one answer, so that AUTHs sent one after another cannot hold it open).
    private var authOverdue = false
    /// When the connection last received or sent something (sent: at a flush, when the lines written before it
    /// leave). A read or a flush only notes the time: the idle timer, when it fires, schedules itself again for the
    /// rest of the idle time (cancelling and scheduling a timer on every request cost a tenth of a LOG's CPU on the
    /// event loop). Sending counts because an answer that took longer than the idle time (an AUTH on a busy server)
    /// left the client no time to send its next request: the connection was closed under it.
    private var lastActivity = NIODeadline.uptimeNanoseconds(0)
    private var readingStopped = false

    init(authTimeout: Duration, idleTimeout: Duration, expiry: ConnectionExpiry) {
        self.authTimeout = TimeAmount(authTimeout)
        self.idleTimeout = TimeAmount(idleTimeout)
        self.expiry = expiry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startTimers(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startTimers(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        authTimer?.cancel()
        idleTimer?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !readingStopped else { return }
        lastActivity = context.eventLoop.now
        context.fireChannelRead(data)
    }

    func flush(context: ChannelHandlerContext) {
        // At the flush, not at each write: a write's pushes go out as many lines and one flush.
        lastActivity = context.eventLoop.now
        context.flush()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is Authenticated:
            authenticated = true
            authTimer?.cancel()
            authTimer = nil
        case is AuthStarted:
            authsInFlight += 1
        case is AuthAnswered:
            authsInFlight = max(0, authsInFlight - 1)
            if authOverdue, !authenticated {
                expiry.note("auth_timeout")
                stopReading(context: context)
            }
        case is ChannelShouldQuiesceEvent:
            stopReading(context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func startTimers(context: ChannelHandlerContext) {
        guard authTimer == nil else { return }
        authTimer = scheduleAuthTimeout(context: context)
        lastActivity = context.eventLoop.now
        scheduleIdleTimer(at: lastActivity + idleTimeout, context: context)
    }

    /// Ends the connection at `deadline` unless something was read or written since, in which case it looks again when
    /// the idle time after that is up.
    private func scheduleIdleTimer(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let contextBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        idleTimer = context.eventLoop.scheduleTask(deadline: deadline) {
            let handler = loopBound.value
            let due = handler.lastActivity + handler.idleTimeout
            guard due <= contextBound.value.eventLoop.now else {
                handler.scheduleIdleTimer(at: due, context: contextBound.value)
                return
            }
            handler.expiry.note("idle")
            handler.stopReading(context: contextBound.value)
        }
    }

    /// Ends the connection's request stream as a closed input would (also under TLS, which cannot half-close);
    /// lines that arrive later are dropped.
    private func stopReading(context: ChannelHandlerContext) {
        guard !readingStopped else { return }
        readingStopped = true
        authTimer?.cancel()
        idleTimer?.cancel()
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    }

    /// Ends the connection when the auth timeout is up, or, with an AUTH in flight then, at its answer.
    private func scheduleAuthTimeout(context: ChannelHandlerContext) -> Scheduled<Void> {
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let contextBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        return context.eventLoop.scheduleTask(in: authTimeout) {
            let handler = loopBound.value
            guard !handler.authenticated else { return }
            guard handler.authsInFlight == 0 else {
                handler.authOverdue = true
                return
            }
            handler.expiry.note("auth_timeout")
            handler.stopReading(context: contextBound.value)
        }
    }

    /// Whether `frame` is an AUTH request, as the request parser names its verb.
    static func isAuth(_ frame: InboundFrame) -> Bool {
        guard case .line(let line) = frame else { return false }
        return RequestLineParser.verb(of: line) == "AUTH"
    }
}

