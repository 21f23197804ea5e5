import LaurelProtocol
import NIOCore
import NIOPosix
import NIOSSL

/// Opens one connection to the server: TCP, TLS on top when configured, framed in lines by the protocol's own
/// codec.
enum ServerChannel {
    typealias Channel = NIOAsyncChannel<InboundFrame, ByteBuffer>

    /// Long enough for any answer (an ACCOUNT.EXPORT of a long history).
    static let maxLineBytes = 64 << 20

    static func open(_ configuration: LaurelClientConfiguration) async throws -> Channel {
        let tls = try configuration.tls.map { try NIOSSLContext(configuration: $0) }
        return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls {
                        try pipeline.addHandler(try NIOSSLClientHandler(
                            context: tls, serverHostname: configuration.serverHostname ?? configuration.host))
                    }
                    try pipeline.addHandler(MessageToByteHandler(LineFrameEncoder()))
                    try pipeline.addHandler(ByteToMessageHandler(LineFrameDecoder(maxLineBytes: maxLineBytes)))
                    return try Channel(wrappingChannelSynchronously: channel)
                }
            }
    }
}
