import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// A small HTTP listener for operators and orchestrators: `GET /metrics` (Prometheus text format) and
/// `GET /health` (200 while the server runs). Anything else is 404.
public struct MetricsEndpoint: Service {
    let host: String
    let port: Int
    let metrics: ServerMetrics
    let logger: Logger

    public init(host: String, port: Int, metrics: ServerMetrics, logger: Logger) {
        self.host = host
        self.port = port
        self.metrics = metrics
        self.logger = logger
    }

    public func run() async throws {
        let metrics = self.metrics
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(MetricsResponder(metrics: metrics))
                }
            }
            .bind(host: host, port: port).get()
        logger.info("metrics on http://\(host):\(channel.localAddress?.port ?? port)/metrics")
        try await withGracefulShutdownHandler {
            try await channel.closeFuture.get()
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
    }
}

/// Answers one HTTP request at a time on a metrics connection.
final class MetricsResponder: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let metrics: ServerMetrics

    init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let request) = unwrapInboundIn(data) else { return }
        let (status, body): (HTTPResponseStatus, String)
        switch (request.method, request.uri.split(separator: "?").first ?? "") {
        case (.GET, "/metrics"): (status, body) = (.ok, metrics.exposition())
        case (.GET, "/health"): (status, body) = (.ok, "ok\n")
        default: (status, body) = (.notFound, "not found\n")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: request.uri.hasPrefix("/metrics") ? "text/plain; version=0.0.4" : "text/plain")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
