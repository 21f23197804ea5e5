import Foundation
import LaurelJSON
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization

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

    static func connect(port: Int, offering protocols: [String] = ["laurel.v1"], tls: NIOSSLContext? = nil) async throws -> WebSocketTestClient {
        let chosen = Mutex<String?>(nil)
        let upgrade: EventLoopFuture<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>?> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: "localhost")) }
                    let upgrader = NIOTypedWebSocketClientUpgrader<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>?>(
                        upgradePipelineHandler: { channel, response in
                            chosen.withLock { $0 = response.headers["Sec-WebSocket-Protocol"].first }
                            return channel.eventLoop.makeCompletedFuture {
                                try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
                            }
                        })
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "localhost")
                    headers.add(name: "Content-Length", value: "0")
                    if !protocols.isEmpty { headers.add(name: "Sec-WebSocket-Protocol", value: protocols.joined(separator: ", ")) }
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: NIOTypedHTTPClientUpgradeConfiguration(
                            upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/", headers: headers),
                            upgraders: [upgrader],
                            notUpgradingCompletionHandler: { channel in
                                channel.eventLoop.makeSucceededFuture(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>?.none)
                            })))
                }
            }
        guard let channel = try await upgrade.get() else { throw Failure.notUpgraded }
        return WebSocketTestClient(channel: channel, subprotocol: chosen.withLock { $0 })
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
