import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// A small HTTP listener for operators and orchestrators: `GET /metrics` (Prometheus text format), `GET /health`
/// (200 while the database answers, 503 while it does not or takes longer than 3 s: an instance that cannot
/// store a log should not be sent clients) and `GET /live` (200 while the process serves at all). Anything else
/// is 404.
public struct MetricsEndpoint: Service {
    let host: String
    let port: Int
    let metrics: ServerMetrics
    let logger: Logger
    let databaseIsReachable: @Sendable () async -> Bool

    public init(
        host: String, port: Int, metrics: ServerMetrics, logger: Logger,
        databaseIsReachable: @escaping @Sendable () async -> Bool = { true }
    ) {
        self.host = host
        self.port = port
        self.metrics = metrics
        self.logger = logger
        self.databaseIsReachable = databaseIsReachable
    }

    public func run() async throws {
        let (metrics, check) = (self.metrics, self.databaseIsReachable)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(MetricsResponder(metrics: metrics, databaseIsReachable: check))
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

    static let healthTimeout: Duration = .seconds(3)

    let metrics: ServerMetrics
    let databaseIsReachable: @Sendable () async -> Bool

    init(metrics: ServerMetrics, databaseIsReachable: @escaping @Sendable () async -> Bool) {
        self.metrics = metrics
        self.databaseIsReachable = databaseIsReachable
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let request) = unwrapInboundIn(data) else { return }
        switch (request.method, request.uri.split(separator: "?").first ?? "") {
        case (.GET, "/metrics"):
            respond(context: context, to: request, status: .ok, body: metrics.exposition(), type: "text/plain; version=0.0.4")
        case (.GET, "/live"):
            respond(context: context, to: request, status: .ok, body: "ok\n")
        case (.GET, "/health"):
            // The check runs off the event loop (the pool's threads) and the answer is written back on it.
            let check = databaseIsReachable
            let reachable = context.eventLoop.makePromise(of: Bool.self)
            reachable.completeWithTask {
                await withTaskGroup(of: Bool?.self) { group in
                    group.addTask { await check() }
                    group.addTask {
                        try? await Task.sleep(for: Self.healthTimeout)
                        return nil
                    }
                    let first = await group.next() ?? nil
                    group.cancelAll()
                    return first ?? false
                }
            }
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            reachable.futureResult.whenSuccess { [self] reachable in
                respond(context: bound.value, to: request, status: reachable ? .ok : .serviceUnavailable,
                        body: reachable ? "ok\n" : "database unreachable\n")
            }
        default:
            respond(context: context, to: request, status: .notFound, body: "not found\n")
        }
    }

    private func respond(
        context: ChannelHandlerContext, to request: HTTPRequestHead, status: HTTPResponseStatus, body: String,
        type: String = "text/plain"
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
