import LaurelProtocol
import NIOCore

/// The frames a client sends, in order, as its connection's task reads them: an `AsyncSequence` that
/// ``InboundFrameHandler`` feeds on the channel's event loop, with back-pressure. Reading stops while
/// `--max-in-flight` frames wait unread and starts again once half of them are taken.
///
/// It is NIO's own producer, the one `NIOAsyncChannel` reads through, fed by a handler of this module instead of
/// `NIOAsyncChannel`'s. That handler is generic, and the channel pipeline calls it through its protocol: its code ran
/// unspecialised, looking up generic metadata at run time, about 16,000 instructions a request (`callgrind`, one
/// user's LOGs). This one is a concrete type, and the producer's inlinable code is specialised for `InboundFrame`.
typealias InboundFrames = NIOThrowingAsyncSequenceProducer<
    InboundFrame, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, InboundFrameHandler.Demand
>

/// The last handler of a connection's pipeline: it hands the frames each read brings to ``InboundFrames`` at the
/// read's end, holds back the channel's next read while the connection's task has enough unread, and ends the
/// frames when the client closes its side, the connection closes or breaks. It also tells the connection's
/// ``LineGate`` when the channel goes inactive or its writability changes.
final class InboundFrameHandler: ChannelDuplexHandler {
    typealias InboundIn = InboundFrame
    typealias OutboundIn = Any

    /// Whether the channel may read, as the frames' consumer asks.
    private enum Reading {
        case on
        /// The consumer has enough: the next read the channel asks for waits.
        case paused
        /// Paused, and the channel asked to read.
        case pausedWithReadWaiting
    }

    private var source: InboundFrames.Source?
    private var context: ChannelHandlerContext?
    /// What the current read brought, handed over at its end.
    private var unhanded: [InboundFrame] = []
    private var reading = Reading.on
    private let gate: LineGate

    /// A handler for a channel on `eventLoop`, and the frames it feeds, which wait unread up to `highWatermark`; it
    /// notes the channel's state in `gate`.
    static func make(
        on eventLoop: any EventLoop, lowWatermark: Int, highWatermark: Int, gate: LineGate
    ) -> (InboundFrameHandler, InboundFrames) {
        let handler = InboundFrameHandler(gate: gate)
        let made = InboundFrames.makeSequence(
            backPressureStrategy: .init(lowWatermark: lowWatermark, highWatermark: highWatermark), finishOnDeinit: false,
            delegate: Demand(handler: NIOLoopBound(handler, eventLoop: eventLoop)))
        handler.source = made.source
        return (handler, made.sequence)
    }

    private init(gate: LineGate) {
        self.gate = gate
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        gate.noteWritable(context.channel.isWritable)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish(error: nil)
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        unhanded.append(unwrapInboundIn(data))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        handOver()
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        gate.noteInactive()
        finish(error: nil)
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        gate.noteWritable(context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client closed its side: what it sent is all there is (its answers can still be written).
        if case ChannelEvent.inputClosed = event { finish(error: nil) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(error: error)
        context.fireErrorCaught(error)
    }

    func read(context: ChannelHandlerContext) {
        switch reading {
        case .on: context.read()
        case .paused: reading = .pausedWithReadWaiting
        case .pausedWithReadWaiting: break
        }
    }

    private func handOver() {
        guard !unhanded.isEmpty else { return }
        guard let source else {
            unhanded.removeAll()
            return
        }
        if case .stopProducing = source.yield(contentsOf: unhanded), reading == .on {
            reading = .paused
        }
        unhanded.removeAll(keepingCapacity: true)
    }

    private func finish(error: (any Error)?) {
        guard let source else { return }
        handOver()
        if let error { source.finish(error) } else { source.finish() }
        self.source = nil
    }

    /// The consumer took enough to read again.
    private func readAgain() {
        switch reading {
        case .paused:
            reading = .on
        case .pausedWithReadWaiting:
            reading = .on
            context?.read()
        case .on:
            break
        }
    }

    /// The consumer stopped reading for good: nothing more is handed over, and the channel reads no more.
    private func consumerGone() {
        source = nil
        reading = .pausedWithReadWaiting
    }

    /// What the frames' consumer asks of the handler, from its task: carried over to the event loop.
    struct Demand: NIOAsyncSequenceProducerDelegate {
        let handler: NIOLoopBound<InboundFrameHandler>

        func produceMore() {
            onEventLoop { $0.readAgain() }
        }

        func didTerminate() {
            onEventLoop { $0.consumerGone() }
        }

        private func onEventLoop(_ body: @escaping @Sendable (InboundFrameHandler) -> Void) {
            let eventLoop = handler.eventLoop
            if eventLoop.inEventLoop {
                body(handler.value)
            } else {
                eventLoop.execute { [handler] in body(handler.value) }
            }
        }
    }
}
