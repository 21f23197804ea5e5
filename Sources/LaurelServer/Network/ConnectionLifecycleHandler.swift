import LaurelJSON
import LaurelProtocol
import NIOCore

/// Ends connections that should not stay open: one that did not authenticate within `authTimeout`, one idle
/// for `idleTimeout`, and, on shutdown, stops reading so the requests already received are answered before the
/// connection says `BYE`. Timers live on the channel's event loop, so they cost no task per connection.
final class ConnectionLifecycleHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = InboundFrame
    typealias InboundOut = InboundFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Sent down the pipeline by the connection once AUTH succeeded.
    struct Authenticated: Sendable {}

    private let authTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private var authTimer: Scheduled<Void>?
    private var idleTimer: Scheduled<Void>?

    init(authTimeout: Duration, idleTimeout: Duration) {
        self.authTimeout = TimeAmount(authTimeout)
        self.idleTimeout = TimeAmount(idleTimeout)
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
        restartIdleTimer(context: context)
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is Authenticated:
            authTimer?.cancel()
            authTimer = nil
        case is ChannelShouldQuiesceEvent:
            // Stop reading; the connection answers what it has, then says BYE (see ClientConnection).
            context.close(mode: .input, promise: nil)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func startTimers(context: ChannelHandlerContext) {
        guard authTimer == nil else { return }
        authTimer = schedule(after: authTimeout, context: context, reason: "auth_timeout")
        restartIdleTimer(context: context)
    }

    private func restartIdleTimer(context: ChannelHandlerContext) {
        idleTimer?.cancel()
        idleTimer = schedule(after: idleTimeout, context: context, reason: "idle")
    }

    private func schedule(after delay: TimeAmount, context: ChannelHandlerContext, reason: String) -> Scheduled<Void> {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        return context.eventLoop.scheduleTask(in: delay) {
            let context = loopBound.value
            context.writeAndFlush(NIOAny(OutboundLine.push(kind: "BYE", ["reason": .string(reason)])), promise: nil)
            context.close(promise: nil)
        }
    }
}

