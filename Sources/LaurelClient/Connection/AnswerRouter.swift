import LaurelProtocol
import NIOCore

/// The reading end of a ``LaurelConnection``, on its channel's event loop. The first line is the greeting; an
/// answer whose tag the connection gave out goes to the request waiting for it, or arrives as
/// ``LaurelConnection/Arrival/answer(tag:_:)``; every other line arrives as it is, in the order the server sent it.
/// When the connection ends, the waiting requests fail and the arrivals end.
final class AnswerRouter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = InboundFrame

    private let tags: RequestTags
    private let arrivals: AsyncStream<LaurelConnection.Arrival>.Continuation
    private let greeting: EventLoopPromise<ServerLine>
    /// Whether the greeting also arrives as a line (for tests that read every line the server sent).
    private let greetingArrives: Bool
    private var greeted = false
    private var ended = false
    /// Set by ``LaurelConnection/receiveArrivals(with:)``: from then on, arrivals go to it instead of `arrivals`.
    private var receiver: (any ArrivalReceiver)?

    init(tags: RequestTags, arrivals: AsyncStream<LaurelConnection.Arrival>.Continuation, greeting: EventLoopPromise<ServerLine>, greetingArrives: Bool) {
        self.tags = tags
        self.arrivals = arrivals
        self.greeting = greeting
        self.greetingArrives = greetingArrives
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .line(let bytes) = unwrapInboundIn(data) else {
            arrive(.lineTooLong)
            return
        }
        let line = ServerLine(bytes)
        if !greeted {
            greeted = true
            greeting.succeed(line)
            if !greetingArrives { return }
        }
        guard !line.isUntagged, let number = tags.number(of: line.tag) else {
            arrive(.line(line))
            return
        }
        if let waiting = tags.take(number) {
            waiting.resume(returning: line)
        } else {
            arrive(.answer(tag: number, line))
        }
    }

    /// Hands the arrivals from now on to `receiver`, and ends `arrivals` after the lines already in it. On a
    /// connection that has ended, `receiver` learns so at once.
    func divert(to receiver: any ArrivalReceiver) {
        arrivals.finish()
        guard !ended else {
            receiver.connectionEnded()
            return
        }
        self.receiver = receiver
    }

    private func arrive(_ arrival: LaurelConnection.Arrival) {
        if let receiver {
            receiver.received(arrival)
        } else {
            arrivals.yield(arrival)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        end()
        context.fireChannelInactive()
    }

    /// A channel that closes without ever being connected is never inactive, but its handlers are removed.
    func handlerRemoved(context: ChannelHandlerContext) {
        end()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A broken TLS session or a reset: the connection ends, and with it what waits on it.
        context.close(promise: nil)
    }

    private func end() {
        guard !ended else { return }
        ended = true
        if !greeted {
            greeted = true
            greeting.fail(LaurelConnectionError.closed)
        }
        for waiting in tags.close() { waiting.resume(throwing: LaurelConnectionError.closed) }
        arrivals.finish()
        receiver?.connectionEnded()
        receiver = nil
    }
}
