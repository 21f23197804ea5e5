import LaurelProtocol
import NIOCore
import NIOWebSocket

/// The client's end of the line protocol over WebSocket: a text message (its fragments joined) is one line in,
/// each line out is one masked text message (a client must mask), pings are answered, and the server's close frame
/// closes the connection.
final class WebSocketClientLineCodec: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = InboundFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    private let maxLineBytes: Int
    private var message: ByteBuffer?

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .continuation:
            var data = frame.unmaskedData
            if frame.opcode == .text { message = ByteBuffer() }
            message?.writeBuffer(&data)
            guard frame.fin, let complete = message else { return }
            message = nil
            context.fireChannelRead(wrapInboundOut(complete.readableBytes > maxLineBytes ? .lineTooLong : .line(complete)))
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            context.close(promise: nil)
        default:
            break
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: unwrapOutboundIn(data))), promise: promise)
    }
}
