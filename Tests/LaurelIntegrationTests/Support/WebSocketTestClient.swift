import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOWebSocket

/// A WebSocket client for the tests: upgrades on `/` (offering `laurel.v1`), sends masked text or binary messages
/// (whole or in fragments) and reads what the server sends: text messages as lines, and the close frame's code.
final class WebSocketTestClient: Sendable {
    enum Received: Sendable, Equatable {
        case text(String)
        case closed(code: UInt16?)
    }

    enum Failure: Error {
        case notUpgraded
        case timedOut
    }

    /// The subprotocol the server chose, if any.
    let subprotocol: String?
    private let inbound: AsyncStream<Received>
    /// Frames to send, in order; the task that owns the channel writes them.
    private let outgoing: AsyncStream<WebSocketFrame>.Continuation
    private let owner: Task<Void, Never>

    private init(channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, subprotocol: String?) {
        self.subprotocol = subprotocol
        let (stream, continuation) = AsyncStream<Received>.makeStream()
        let (frames, outgoing) = AsyncStream<WebSocketFrame>.makeStream()
        inbound = stream
        self.outgoing = outgoing
        owner = Task {
            try? await channel.executeThenClose { inbound, outbound in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await frame in frames { try await outbound.write(frame) }
                    }
                    for try await frame in inbound {
                        switch frame.opcode {
                        case .text:
                            continuation.yield(.text(String(buffer: frame.unmaskedData)))
                        case .connectionClose:
                            var data = frame.unmaskedData
                            continuation.yield(.closed(code: data.readInteger(as: UInt16.self)))
                        default:
                            break
                        }
                    }
                    group.cancelAll()
                }
            }
            continuation.finish()
        }
    }

    deinit {
        outgoing.finish()
        owner.cancel()
    }

    /// Connects and upgrades. The handshake is done by hand (``WebSocketHandshake``), so that frames the server sends
    /// in the same read as its `101` answer (its `HELLO`) reach the frame decoder whatever the timing.
    static func connect(port: Int, offering protocols: [String] = ["laurel.v1"], tls: NIOSSLContext? = nil) async throws -> WebSocketTestClient {
        let handshake = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: String?.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls { try pipeline.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: "localhost")) }
                    // The handshake before the frame encoder: its own request goes out as plain bytes.
                    try pipeline.addHandler(WebSocketHandshake(protocols: protocols, done: handshake))
                    try pipeline.addHandler(WebSocketFrameEncoder())
                    return try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
                }
            }
        do {
            return WebSocketTestClient(channel: channel, subprotocol: try await handshake.futureResult.get())
        } catch {
            try? await channel.channel.close()
            throw error
        }
    }

    /// Sends `text` as one text message, or in `fragments` frames.
    func send(_ text: String, fragments: Int = 1) async throws {
        let bytes = Array(text.utf8)
        let size = max(1, (bytes.count + fragments - 1) / fragments)
        var start = 0
        repeat {
            let end = min(bytes.count, start + size)
            outgoing.yield(WebSocketFrame(
                fin: end == bytes.count, opcode: start == 0 ? .text : .continuation, maskKey: .random(),
                data: ByteBuffer(bytes: bytes[start..<end])))
            start = end
        } while start < bytes.count
    }

    func sendBinary(_ bytes: [UInt8]) async throws {
        outgoing.yield(WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: bytes)))
    }

    /// The next thing received, waiting at most `timeout`.
    func next(timeout: Duration = .seconds(10)) async throws -> Received? {
        let stream = inbound
        return try await withThrowingTaskGroup(of: Received?.self) { group in
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw Failure.timedOut
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    /// Sends a request line and returns the text message answering its tag (pushes before it are skipped).
    func request(_ line: String) async throws -> String {
        try await send(line)
        let tag = line.prefix { $0 != " " }
        while let received = try await next() {
            if case .text(let text) = received, text.hasPrefix("\(tag) ") { return text }
        }
        return ""
    }

    /// The next text message that starts with `prefix`.
    func message(startingWith prefix: String) async throws -> String? {
        while let received = try await next() {
            if case .text(let text) = received, text.hasPrefix(prefix) { return text }
        }
        return nil
    }

    /// Stops sending; the server's close (or the end of the test) ends the connection.
    func close() {
        outgoing.finish()
        owner.cancel()
    }
}

/// The client's side of the WebSocket handshake: sends the upgrade request, reads the answer up to its blank line,
/// then hands everything after it to a frame decoder put in its place. `done` gets the chosen subprotocol, or fails
/// when the server does not upgrade.
private final class WebSocketHandshake: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let protocols: [String]
    private let done: EventLoopPromise<String?>
    private var received = ByteBuffer()

    init(protocols: [String], done: EventLoopPromise<String?>) {
        self.protocols = protocols
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        var request = "GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: \(Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())\r\n"
        request += "Sec-WebSocket-Version: 13\r\n"
        if !protocols.isEmpty { request += "Sec-WebSocket-Protocol: \(protocols.joined(separator: ", "))\r\n" }
        context.writeAndFlush(NIOAny(ByteBuffer(string: request + "\r\n")), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        let view = received.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
        let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        received.moveReaderIndex(to: end.upperBound)
        let lines = head.split(separator: "\r\n")
        guard lines.first?.hasPrefix("HTTP/1.1 101") == true else {
            done.fail(WebSocketTestClient.Failure.notUpgraded)
            context.close(promise: nil)
            return
        }
        let chosen = lines.dropFirst().first { $0.lowercased().hasPrefix("sec-websocket-protocol:") }
            .map { String($0.drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces) }
        do {
            try context.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 22)), position: .after(self))
        } catch {
            done.fail(error)
            return
        }
        if received.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(received)) }
        done.succeed(chosen)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        done.fail(error)
        context.close(promise: nil)
    }
}
