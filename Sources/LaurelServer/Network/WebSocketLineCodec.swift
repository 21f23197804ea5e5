import LaurelProtocol
import NIOCore
import NIOWebSocket

/// The line protocol over WebSocket (operations.md): each text message carries exactly one line without its LF, in
/// both directions, so the rest of the pipeline sees the same frames as on TCP. A message over `maxLineBytes` becomes
/// `lineTooLong` and one holding a LF `lineBreakInMessage` (both answered, the connection stays open); a binary
/// message closes the connection with code 1003. Pings are answered; the server's end of the connection is a close
/// frame.
final class WebSocketLineCodec: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = InboundFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    private let maxLineBytes: Int
    /// The text message being received (fragments are appended until the final one); nil between messages.
    private var message: ByteBuffer?
    private var messageTooLong = false
    private var closeSent = false

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            message = ByteBuffer()
            messageTooLong = false
            receive(frame, context: context)
        case .continuation:
            guard message != nil else { return close(context: context, code: .protocolError) }
            receive(frame, context: context)
        case .binary:
            close(context: context, code: .unacceptableData)
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            break
        case .connectionClose:
            close(context: context, code: .normalClosure)
        default:
            close(context: context, code: .protocolError)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: unwrapOutboundIn(data))), promise: promise)
    }

    /// The server ends the connection (after `BYE`) with a close frame, then closes it.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard !closeSent, mode != .input else { return context.close(mode: mode, promise: promise) }
        close(context: context, code: .normalClosure, then: promise)
    }

    private func receive(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        let data = frame.unmaskedData
        if !messageTooLong, let length = message?.readableBytes, length + data.readableBytes <= maxLineBytes {
            message?.writeImmutableBuffer(data)
        } else {
            // Dropped up to its end, like an over-long TCP line.
            messageTooLong = true
            message?.clear()
        }
        guard frame.fin, let complete = message else { return }
        message = nil
        if messageTooLong {
            context.fireChannelRead(wrapInboundOut(.lineTooLong))
        } else if complete.readableBytesView.contains(UInt8(ascii: "\n")) {
            context.fireChannelRead(wrapInboundOut(.lineBreakInMessage))
        } else {
            context.fireChannelRead(wrapInboundOut(.line(complete)))
        }
    }

    private func close(context: ChannelHandlerContext, code: WebSocketErrorCode, then promise: EventLoopPromise<Void>? = nil) {
        guard !closeSent else {
            promise?.succeed()
            return
        }
        closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))).whenComplete { _ in
            channel.close(promise: promise)
        }
    }
}
