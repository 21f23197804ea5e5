import Foundation
import LaurelClient
import NIOCore
import NIOPosix
import NIOSSL
import NIOWebSocket

/// A WebSocket client for the tests of the endpoint's framing, message by message: upgrades on `/` (offering
/// `laurel.v1`), sends masked text or binary messages (whole or in fragments) and reads what the server sends, text
/// messages and the close frame's code. Lines over WebSocket as the library speaks them are `LineClient`'s, with
/// the `.webSocket()` transport.
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

    /// Connects and upgrades (the library's own handshake, ``ServerChannel/openWebSocketFrames``).
    static func connect(port: Int, offering protocols: [String] = ["laurel.v1"], tls: NIOSSLContext? = nil) async throws -> WebSocketTestClient {
        let (channel, subprotocol) = try await ServerChannel.openWebSocketFrames(
            host: "127.0.0.1", port: port, protocols: protocols, tls: tls, serverHostname: tls == nil ? nil : "localhost")
        return WebSocketTestClient(channel: channel, subprotocol: subprotocol)
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

