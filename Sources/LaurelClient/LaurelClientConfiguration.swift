import NIOSSL

/// Where a ``LaurelClient`` connects, as whom, and how it behaves when the connection goes.
public struct LaurelClientConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// TCP (the client port) or WebSocket (the `--ws-port`, `ws://` or with `tls` `wss://`).
    public var transport: LaurelTransport
    /// The user's token (AUTH).
    public var token: String
    /// TLS to the server (`laurel serve --tls-cert`); nil for plain TCP.
    public var tls: TLSConfiguration?
    /// The name the server's certificate is checked against; the host when nil.
    public var serverHostname: String?
    public var reconnect: ReconnectPolicy
    /// Where facts waiting for the server are kept (``InMemoryOutboxStore`` or ``FileOutboxStore``).
    public var outboxStore: any OutboxStore
    /// The `seq` of the last push the app has shown, kept by the app across launches: pushes after it are
    /// replayed at the first AUTH, none before it is delivered again. Nil: only pushes from now on.
    public var lastSeenPush: Int?
    /// Requests of the outbox sent before their answers are awaited.
    public var outboxWindow: Int

    public init(
        host: String, port: Int = 7420, transport: LaurelTransport = .tcp, token: String, tls: TLSConfiguration? = nil, serverHostname: String? = nil,
        reconnect: ReconnectPolicy = ReconnectPolicy(), outboxStore: any OutboxStore = InMemoryOutboxStore(),
        lastSeenPush: Int? = nil, outboxWindow: Int = 32
    ) {
        self.host = host
        self.port = port
        self.transport = transport
        self.token = token
        self.tls = tls
        self.serverHostname = serverHostname
        self.reconnect = reconnect
        self.outboxStore = outboxStore
        self.lastSeenPush = lastSeenPush
        self.outboxWindow = max(1, outboxWindow)
    }
}

/// How long a client waits before connecting again: doubling from `initialDelay` up to `maxDelay`, each wait
/// shortened at random by up to `jitter` of it, so that the devices a restarting server dropped together do not all
/// come back at the same instant. A connection that authenticated starts the doubling over.
public struct ReconnectPolicy: Sendable, Equatable {
    public var initialDelay: Duration
    public var maxDelay: Duration
    public var jitter: Double

    public init(initialDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(30), jitter: Double = 0.5) {
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.jitter = min(max(jitter, 0), 1)
    }
}
