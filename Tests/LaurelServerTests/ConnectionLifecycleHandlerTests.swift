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

    /// A channel whose client has not authenticated, with an auth timeout of 1 s.
    static func unauthenticatedChannel() throws -> (EmbeddedChannel, ConnectionExpiry) {
        let expiry = ConnectionExpiry()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ConnectionLifecycleHandler(authTimeout: .seconds(1), idleTimeout: .seconds(60), expiry: expiry))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, expiry)
    }

    @Test func anAuthTakenInTimeIsAnsweredThoughTheAnswerComesAfterTheAuthTimeout() throws {
        let (channel, expiry) = try Self.unauthenticatedChannel()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(500))
        channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.AuthStarted())
        // AUTHs from one address take turns: this one is decided 2 s later.
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(expiry.reason == nil, "closed with its AUTH in flight")
        channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.Authenticated())
        channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.AuthAnswered())
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(expiry.reason == nil)
        _ = try? channel.finish()
    }

    @Test func anAuthTakenInTimeThatFailsAfterTheAuthTimeoutEndsTheConnectionAtItsAnswer() throws {
        let (channel, expiry) = try Self.unauthenticatedChannel()
        channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.AuthStarted())
        channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.AuthStarted())
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(expiry.reason == nil)
        // The first answer after the timeout decides, whatever else is in flight.
        channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.AuthAnswered())
        #expect(expiry.reason == "auth_timeout")
        _ = try? channel.finish()
    }

    @Test func withoutAnAuthInFlightTheAuthTimeoutEndsTheConnection() throws {
        let (channel, expiry) = try Self.unauthenticatedChannel()
        // An AUTH answered (refused) in time does not stop the timeout.
        channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.AuthStarted())
        channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.AuthAnswered())
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(expiry.reason == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(2))
        #expect(expiry.reason == "auth_timeout")
        _ = try? channel.finish()
    }

    @Test func anAuthIsATagThenTheVerbInAnyCase() {
        func isAuth(_ line: String) -> Bool { ConnectionLifecycleHandler.isAuth(.line(ByteBuffer(string: line))) }
        #expect(isAuth(#"a1 AUTH {"token":"x"}"#))
        #expect(isAuth("a1 auth {}"))
        #expect(isAuth("a1 Auth"))
        #expect(!isAuth("a1 AUTHX {}"))
        #expect(!isAuth("a1 PING"))
        #expect(!isAuth(#"AUTH {"token":"x"}"#), "no tag: not a request the connection answers as AUTH")
        #expect(!isAuth(" AUTH {}"))
        #expect(!ConnectionLifecycleHandler.isAuth(.lineTooLong))
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
