import Foundation
import NIOCore
import NIOWebSocket

/// Why a WebSocket connection could not be opened.
public enum WebSocketOpeningError: Error, Sendable {
    /// The server answered the upgrade request with something else than `101 Switching Protocols`.
    case notUpgraded(status: String)
}

/// The client's side of the WebSocket handshake, done by hand: it sends the upgrade request, reads the answer up to
/// its blank line, then puts a frame decoder in its place and hands it what followed the answer. (The server sends
/// `HELLO` at once; frames that arrive in the same read as the `101` must reach the decoder, whatever the timing.)
/// `done` gets the chosen subprotocol, or fails when the server does not upgrade.
final class WebSocketHandshake: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let host: String
    private let path: String
    private let protocols: [String]
    private let maxFrameSize: Int
    private let done: EventLoopPromise<String?>
    private var received = ByteBuffer()

    init(host: String, path: String, protocols: [String], maxFrameSize: Int, done: EventLoopPromise<String?>) {
        self.host = host
        self.path = path
        self.protocols = protocols
        self.maxFrameSize = maxFrameSize
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
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
        guard let status = lines.first, status.hasPrefix("HTTP/1.1 101") else {
            done.fail(WebSocketOpeningError.notUpgraded(status: String(lines.first ?? "")))
            context.close(promise: nil)
            return
        }
        let chosen = lines.dropFirst().first { $0.lowercased().hasPrefix("sec-websocket-protocol:") }
            .map { String($0.drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces) }
        do {
            try context.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxFrameSize)), position: .after(self))
        } catch {
            done.fail(error)
            return
        }
        if received.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(received)) }
        done.succeed(chosen)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.fail(ChannelError.eof)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        done.fail(error)
        context.close(promise: nil)
    }
}
