import NIOCore

/// Splits a TCP connection's bytes into ``InboundFrame``s with ``LineFrameDecoder``'s rules, as a channel handler:
/// each read's lines go on down the pipeline at once, an unfinished line waits for the next read, and at the end of
/// input an unfinished line within the limit is delivered as a line.
///
/// It does what `ByteToMessageHandler(LineFrameDecoder(...))` does, as a concrete type. NIO's handler is generic, and
/// a channel pipeline calls its handlers through their protocol, so its code ran unspecialised on every read,
/// looking up generic metadata at run time (about 5,000 instructions a request, with `callgrind`).
public final class LineFrameHandler: ChannelInboundHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = InboundFrame

    private var decoder: LineFrameDecoder
    /// The bytes of an unfinished line (at most `maxLineBytes` + 1 of them: the decoder discards the rest).
    private var unfinished: ByteBuffer?
    private var inputEnded = false

    public init(maxLineBytes: Int) {
        decoder = LineFrameDecoder(maxLineBytes: maxLineBytes)
    }

    /// How many bytes of an unfinished line the handler holds.
    public var bufferedBytes: Int { unfinished?.readableBytes ?? 0 }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if var earlier = unfinished.take() {
            // Rebased so that what the decoder discarded is not carried along.
            earlier.discardReadBytes()
            earlier.writeBuffer(&bytes)
            bytes = earlier
        }
        deliverLines(of: &bytes, context: context)
        if bytes.readableBytes > 0 { unfinished = bytes }
    }

    public func channelInactive(context: ChannelHandlerContext) {
        deliverTheRest(context: context)
        context.fireChannelInactive()
    }

    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { deliverTheRest(context: context) }
        context.fireUserInboundEventTriggered(event)
    }

    private func deliverLines(of bytes: inout ByteBuffer, context: ChannelHandlerContext) {
        do {
            while let frame = try decoder.decode(buffer: &bytes) {
                context.fireChannelRead(wrapInboundOut(frame))
            }
        } catch {
            context.fireErrorCaught(error)
        }
    }

    /// The input ended: an unfinished line goes on as it is, once.
    private func deliverTheRest(context: ChannelHandlerContext) {
        guard !inputEnded else { return }
        inputEnded = true
        guard var rest = unfinished.take() else { return }
        do {
            while let frame = try decoder.decodeLast(buffer: &rest, seenEOF: true) {
                context.fireChannelRead(wrapInboundOut(frame))
            }
        } catch {
            context.fireErrorCaught(error)
        }
        context.fireChannelReadComplete()
    }
}
