import LaurelProtocol
import NIOCore
import NIOPosix
import NIOSSL
import NIOWebSocket

/// How lines travel to the server: a TCP stream (TLS when configured), or WebSocket text messages, one line each
/// (`laurel serve --ws-port`).
public enum LaurelTransport: Sendable, Equatable {
    case tcp
    case webSocket(path: String = "/")
}

/// Opens connections to a Laurel server: the one place in the repository that does, under ``LaurelConnection``
/// and for the tests that check the WebSocket endpoint frame by frame. Lines are framed by the protocol's own codec
/// over TCP, and carried one per text message over WebSocket; either way the caller gets a channel of lines.
public enum ServerChannel {
    public typealias Lines = NIOAsyncChannel<InboundFrame, ByteBuffer>
    public typealias Frames = NIOAsyncChannel<WebSocketFrame, WebSocketFrame>

    /// Opens a connection of lines, with no knowledge of the protocol above them (``LaurelConnection`` has it).
    /// `tls` wraps the TCP stream (and the WebSocket's: `wss://`). With `linesOut` false, what is written to a TCP
    /// connection goes out exactly as given, no LF added.
    public static func openLines(
        host: String, port: Int, transport: LaurelTransport = .tcp, tls: NIOSSLContext? = nil, serverHostname: String? = nil,
        maxLineBytes: Int = 64 << 20, linesOut: Bool = true, connectTimeout: Duration = .seconds(10)
    ) async throws -> Lines {
        try await open(
            host: host, port: port, transport: transport, tls: tls, serverHostname: serverHostname, maxLineBytes: maxLineBytes,
            linesOut: linesOut, connectTimeout: connectTimeout
        ) { channel in
            try Lines(wrappingChannelSynchronously: channel)
        }
    }

    /// Opens a connection of lines and hands its channel to `finish`, on the channel's event loop, to put what reads
    /// and writes the lines at the end of its pipeline; returns what `finish` made once the connection is open (for
    /// WebSocket: upgraded).
    static func open<Opened: Sendable>(
        host: String, port: Int, transport: LaurelTransport, tls: NIOSSLContext?, serverHostname: String?,
        maxLineBytes: Int, linesOut: Bool, connectTimeout: Duration,
        finish: @escaping @Sendable (any Channel) throws -> Opened
    ) async throws -> Opened {
        let handshake = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: String?.self)
        let (channel, opened) = try await bootstrap(connectTimeout).connect(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                let pipeline = channel.pipeline.syncOperations
                if let tls { try pipeline.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverHostname ?? nameToVerify(host))) }
                switch transport {
                case .tcp:
                    handshake.succeed(nil)
                    if linesOut { try pipeline.addHandler(MessageToByteHandler(LineFrameEncoder())) }
                    try pipeline.addHandler(LineFrameHandler(maxLineBytes: maxLineBytes))
                case .webSocket(let path):
                    try pipeline.addHandler(WebSocketHandshake(host: host, path: path, protocols: ["laurel.v1"], maxFrameSize: maxLineBytes, done: handshake))
                    try pipeline.addHandler(WebSocketFrameEncoder())
                    try pipeline.addHandler(WebSocketClientLineCodec(maxLineBytes: maxLineBytes))
                }
                return (channel, try finish(channel))
            }
        }
        do {
            _ = try await handshake.futureResult.get()
        } catch {
            try? await channel.close()
            throw error
        }
        return opened
    }

    /// Opens a WebSocket connection of raw frames (for checking the endpoint itself), offering `protocols`; returns
    /// it with the subprotocol the server chose.
    public static func openWebSocketFrames(
        host: String, port: Int, path: String = "/", protocols: [String] = ["laurel.v1"], tls: NIOSSLContext? = nil,
        serverHostname: String? = nil, maxFrameSize: Int = 1 << 22
    ) async throws -> (channel: Frames, subprotocol: String?) {
        let handshake = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: String?.self)
        let channel = try await bootstrap(.seconds(10)).connect(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                let pipeline = channel.pipeline.syncOperations
                if let tls { try pipeline.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverHostname ?? nameToVerify(host))) }
                try pipeline.addHandler(WebSocketHandshake(host: host, path: path, protocols: protocols, maxFrameSize: maxFrameSize, done: handshake))
                try pipeline.addHandler(WebSocketFrameEncoder())
                return try Frames(wrappingChannelSynchronously: channel)
            }
        }
        do {
            return (channel, try await handshake.futureResult.get())
        } catch {
            try? await channel.channel.close()
            throw error
        }
    }

    /// The host as the name a certificate is checked against and sent in SNI; none for an IP address.
    private static func nameToVerify(_ host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }

    private static func bootstrap(_ connectTimeout: Duration) -> ClientBootstrap {
        ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
    }
}
