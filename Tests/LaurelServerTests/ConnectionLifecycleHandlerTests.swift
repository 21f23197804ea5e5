import LaurelProtocol
import NIOCore
import NIOEmbedded
import Testing
@testable import LaurelServer

/// The idle timeout on an embedded channel, whose clock only moves when the test moves it: a connection is idle when
/// nothing was read and nothing written for the idle time.
@Suite struct ConnectionLifecycleHandlerTests {
    static func connectedChannel(idleTimeout: Duration) throws -> (EmbeddedChannel, ConnectionExpiry) {
        let expiry = ConnectionExpiry()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ConnectionLifecycleHandler(authTimeout: .seconds(60), idleTimeout: idleTimeout, expiry: expiry))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.Authenticated())
        return (channel, expiry)
    }

    @Test func anAnswerWrittenLateLeavesTheClientTheWholeIdleTimeForItsNextRequest() throws {
        let (channel, expiry) = try Self.connectedChannel(idleTimeout: .seconds(1))
        try channel.writeInbound(InboundFrame.line(ByteBuffer(string: "a1 AUTH {}")))
        // The answer leaves 0.9 s after the request (a busy server); the client's next request comes 0.5 s later.
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(900))
        try channel.writeOutbound(ByteBuffer(string: "a1 OK {}"))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(500))
        #expect(expiry.reason == nil, "closed 1.4 s after the request, 0.5 s after its answer")
        try channel.writeInbound(InboundFrame.line(ByteBuffer(string: "l1 LOG {}")))
        #expect(try channel.readInbound(as: InboundFrame.self) != nil)

        // Then nothing either way for the idle time: closed.
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(expiry.reason == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(2))
        #expect(expiry.reason == "idle")
        _ = try? channel.finish()
    }

    @Test func aConnectionThatOnlyReadsOnceIsClosedAfterTheIdleTime() throws {
        let (channel, expiry) = try Self.connectedChannel(idleTimeout: .seconds(2))
        try channel.writeInbound(InboundFrame.line(ByteBuffer(string: "p1 PING")))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1999))
        #expect(expiry.reason == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(2))
        #expect(expiry.reason == "idle")
        _ = try? channel.finish()
    }
}
