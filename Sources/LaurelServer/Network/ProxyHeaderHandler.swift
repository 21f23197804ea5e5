import LaurelProtocol
import NIOCore

/// First in the pipeline of a connection from a balancer that speaks the PROXY protocol (`--proxy-protocol`): reads
/// the header (``ProxyHeader``), hands the client's address to the connection's ``ConnectionSource``, passes on what
/// follows it and leaves the pipeline. A connection that does not start with a valid header is closed: without one
/// the client's address is unknown, and whoever could connect around the balancer could claim any address.
final class ProxyHeaderHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let source: ConnectionSource
    private var received: ByteBuffer?

    init(source: ConnectionSource) {
        self.source = source
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if var earlier = received.take() {
            earlier.writeBuffer(&bytes)
            bytes = earlier
        }
        switch ProxyHeader.read(bytes) {
        case .incomplete:
            received = bytes
        case .invalid:
            context.close(promise: nil)
        case .header(let header, let length):
            if case .proxied(let client) = header { source.proxied(client) }
            bytes.moveReaderIndex(forwardBy: length)
            if bytes.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(bytes)) }
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}
