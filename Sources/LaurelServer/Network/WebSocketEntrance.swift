import LaurelProtocol
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// The WebSocket endpoint (`ws://HOST:WS_PORT/`, `wss://` with TLS): an HTTP request upgraded on `/`, subprotocol
/// `laurel.v1` chosen when the client offers it; the upgraded connection then carries the line protocol
/// (``WebSocketLineCodec``) into the same connection loop as TCP. `GET /` without an upgrade gets the demo page;
/// any other request that is not an upgrade is answered `426 Upgrade Required`; both are closed after the answer.
enum WebSocketEntrance {
    static let subprotocol = "laurel.v1"

    /// What became of one accepted HTTP connection.
    enum Outcome: Sendable {
        case connection(AcceptedConnection)
        case answeredOverHTTP
    }

    static func bind(
        _ configuration: ServerConfiguration, port: Int, quiescing: ServerQuiescingHelper
    ) async throws -> NIOAsyncChannel<EventLoopFuture<Outcome>, Never> {
        // Frames beyond the longest line are still read (and answered `line_too_long`) up to this size.
        let maxFrameSize = max(1 << 20, configuration.maxLineBytes + 1)
        return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: configuration.outboundWaterMark)
            .bind(host: configuration.host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    let source = try AcceptedConnection.readSource(of: channel, configuration: configuration)
                    if let tls = configuration.tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls)) }
                    let upgrader = NIOTypedWebSocketServerUpgrader<Outcome>(
                        maxFrameSize: maxFrameSize,
                        shouldUpgrade: { channel, head in
                            guard head.uri == "/" || head.uri.hasPrefix("/?") else { return channel.eventLoop.makeSucceededFuture(nil) }
                            var headers = HTTPHeaders()
                            let offered = head.headers[canonicalForm: "Sec-WebSocket-Protocol"].map { String($0) }
                            if offered.contains(subprotocol) { headers.add(name: "Sec-WebSocket-Protocol", value: subprotocol) }
                            return channel.eventLoop.makeSucceededFuture(headers)
                        },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(WebSocketLineCodec(maxLineBytes: configuration.maxLineBytes))
                                return .connection(try AcceptedConnection(channel, framing: .message, source: source, configuration: configuration))
                            }
                        })
                    return try pipeline.configureUpgradableHTTPServerPipeline(
                        configuration: .init(upgradeConfiguration: NIOTypedHTTPServerUpgradeConfiguration(
                            upgraders: [upgrader],
                            notUpgradingCompletionHandler: { channel in
                                channel.eventLoop.makeCompletedFuture {
                                    try channel.pipeline.syncOperations.addHandler(UpgradeRequired())
                                    return .answeredOverHTTP
                                }
                            })))
                }
            }
    }
}

/// Answers a plain HTTP request on the WebSocket port, then closes: `GET /` gets the demo page (``DemoPage``), anything
/// else `426 Upgrade Required`.
private final class UpgradeRequired: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var asksForPage = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .head(let head) = part { asksForPage = head.method == .GET && (head.uri == "/" || head.uri.hasPrefix("/?")) }
        guard case .end = part else { return }
        let body = asksForPage
            ? ByteBuffer(string: DemoPage.html)
            : ByteBuffer(string: "This is Laurel's WebSocket endpoint: connect with a WebSocket client (subprotocol \(WebSocketEntrance.subprotocol)).\n")
        var headers = HTTPHeaders()
        if !asksForPage { headers.add(name: "Upgrade", value: "websocket") }
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Content-Type", value: asksForPage ? "text/html; charset=utf-8" : "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        let status: HTTPResponseStatus = asksForPage ? .ok : .upgradeRequired
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
