import LaurelProtocol
import NIOCore
import NIOEmbedded
import Testing
@testable import LaurelServer

/// The last handler of a connection's pipeline on an embedded channel: frames reach the connection's sequence at the
/// end of each read, the channel's next read waits while too many are unread and goes out when the consumer asks for
/// more, and the frames end when the client closes its side.
@Suite struct InboundFrameHandlerTests {
    /// Counts the reads the channel asks of the socket: what passes the handler.
    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Any
        var reads = 0

        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    static func frame(_ line: String) -> InboundFrame {
        .line(ByteBuffer(string: line))
    }

    @Test func theGateSeesTheChannelsWritabilityAndItsEnd() throws {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let gate = LineGate()
        let (handler, frames) = InboundFrameHandler.make(on: channel.eventLoop, lowWatermark: 2, highWatermark: 4, gate: gate)
        try channel.pipeline.syncOperations.addHandler(handler)
        _ = frames
        #expect(gate.withState { $0.writable } && gate.isActive)
        // Above the high write watermark, and below it again.
        channel.isWritable = false
        channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        #expect(!gate.withState { $0.writable }, "a writer sees a slow consumer")
        channel.isWritable = true
        channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        #expect(gate.withState { $0.writable })
        _ = try channel.finish()
        #expect(!gate.isActive, "requests read before the channel closed are not executed")
    }

    @Test func readingWaitsAboveTheHighWatermarkUntilTheConsumerAsksForMore() throws {
        let channel = EmbeddedChannel()
        let counter = ReadCounter()
        let (handler, frames) = InboundFrameHandler.make(on: channel.eventLoop, lowWatermark: 2, highWatermark: 4, gate: LineGate())
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.pipeline.syncOperations.addHandler(handler)
        _ = frames

        channel.read()
        #expect(counter.reads == 1)
        for index in 1...3 { try channel.writeInbound(Self.frame("t\(index) PING")) }
        channel.read()
        #expect(counter.reads == 2, "three unread frames are below the high watermark")
        try channel.writeInbound(Self.frame("t4 PING"))
        channel.read()
        channel.read()
        #expect(counter.reads == 2, "four unread frames: the read waits")

        // What the sequence tells the handler once its consumer has taken enough.
        InboundFrameHandler.Demand(handler: NIOLoopBound(handler, eventLoop: channel.eventLoop)).produceMore()
        #expect(counter.reads == 3, "the read that waited goes out, once")
        channel.read()
        #expect(counter.reads == 4)
        _ = try channel.finish()
    }

    @Test func theFramesArriveInOrderAndEndWhenTheClientClosesItsSide() async throws {
        let channel = EmbeddedChannel()
        let (handler, frames) = InboundFrameHandler.make(on: channel.eventLoop, lowWatermark: 2, highWatermark: 64, gate: LineGate())
        try channel.pipeline.syncOperations.addHandler(handler)
        // One read brings two lines, the next one; then the client closes its side.
        channel.pipeline.syncOperations.fireChannelRead(NIOAny(Self.frame("t1 PING")))
        channel.pipeline.syncOperations.fireChannelRead(NIOAny(Self.frame("t2 PING")))
        channel.pipeline.syncOperations.fireChannelReadComplete()
        try channel.writeInbound(Self.frame("t3 PING"))
        channel.pipeline.syncOperations.fireUserInboundEventTriggered(ChannelEvent.inputClosed)

        var lines: [String] = []
        for try await frame in frames {
            guard case .line(let line) = frame else { continue }
            lines.append(String(buffer: line))
        }
        #expect(lines == ["t1 PING", "t2 PING", "t3 PING"])
    }

    @Test func anErrorEndsTheFramesWithIt() async throws {
        struct Broken: Error {}
        let channel = EmbeddedChannel()
        let (handler, frames) = InboundFrameHandler.make(on: channel.eventLoop, lowWatermark: 2, highWatermark: 64, gate: LineGate())
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.writeInbound(Self.frame("t1 PING"))
        channel.pipeline.syncOperations.fireErrorCaught(Broken())

        let iterator = frames.makeAsyncIterator()
        let first = try await iterator.next()
        guard case .line(let line)? = first else {
            Issue.record("the frame before the error arrives first: \(String(describing: first))")
            return
        }
        #expect(String(buffer: line) == "t1 PING")
        await #expect(throws: Broken.self) { _ = try await iterator.next() }
    }
}
