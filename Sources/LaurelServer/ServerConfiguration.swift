import Foundation
import LaurelCore
import NIOCore
import NIOSSL

/// How a Laurel server listens and treats its connections (operations.md lists the flags and defaults).
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var maxConnections: Int
    /// The longest request line, in bytes without the LF.
    public var maxLineBytes: Int
    /// Requests a connection may have unanswered before the server stops reading from it.
    public var maxRequestsInFlight: Int
    /// Bytes written to a connection and not yet taken by its client beyond which the client is a slow consumer
    /// and is disconnected at its next line (so a single line is always sent, however long).
    public var maxOutboundBytes: Int
    public var authTimeout: Duration
    public var idleTimeout: Duration
    /// How long a graceful shutdown may take before the remaining connections are closed without waiting.
    public var shutdownGrace: Duration
    public var logTimePolicy: LogTimePolicy
    public var limits: UserLimits
    /// TLS on the client port (`--tls-cert`, `--tls-key`); nil is plain TCP. The WebSocket port uses it too (`wss://`).
    public var tls: NIOSSLContext?
    /// The WebSocket port (`--ws-port`): nil turns the endpoint off, 0 takes any free port.
    public var webSocketPort: Int?
    /// How often achievements' rarity is read again (rules.md asks at least every 10 minutes).
    public var rarityRefreshInterval: Duration = .seconds(300)
    /// How often the board keys held in memory read again the users whose scores other instances (or a decrease)
    /// moved; how long a key nobody asks for is kept; how often a key held is read whole again.
    public var boardRefreshInterval: Duration = .milliseconds(100)
    public var idleBoardLifetime: Duration = .seconds(600)
    public var boardReloadInterval: Duration = .seconds(600)
    /// The most board keys an instance holds in memory at once (a million users on a key take about 80 MB).
    public var maxHeldBoards = 32
    /// How long a ranking of an ended week stands before it is made again while backfills can still change the week,
    /// and how long a user's standings read from it answer (comparative goals).
    public var weekRankingRefresh: Duration = .seconds(3_600)
    /// How often an instance looks for ended weeks to rank (a week is ranked within this of ending everywhere).
    public var weekRankingCheckInterval: Duration = .seconds(60)
    /// How often an instance looks for accepted invites whose inviter's `invite` event a stop interrupted, and how old
    /// such an acceptance must be before it is taken over (younger ones are still their own server's to finish).
    public var interruptedInviteEventInterval: Duration = .seconds(60)
    /// Requests of any verb a connection may send a second, sustained, and at once: beyond them a request is
    /// answered `rate_limited` without running. The burst leaves room for a device's offline backlog of LOGs.
    public var connectionRequestsPerSecond: Double = 200
    public var connectionRequestBurst: Int = 2000
    /// Failed AUTHs one source address may make across all instances (`--auth-failure-burst`,
    /// `--auth-failures-per-second`); nil turns the limit off.
    public var failedAuthLimit: FailedAuthLimit? = FailedAuthLimit()
    /// Every connection starts with a PROXY v1 or v2 header from the balancer, whose source address is the
    /// client's (`--proxy-protocol`); a connection without a valid one is closed.
    public var proxyProtocol = false
    /// What the server takes as now; only tests shift it.
    public var clock = ServerClock()

    /// This instance's name among the instances sharing the database (`laurel.instances`): its store listener
    /// registers it, and its commits say it (`laurel.instance`), so that they are announced only where another
    /// instance is registered. Unique for every run.
    public var instanceID = UUID().uuidString.lowercased()

    /// What each database connection of the server sets for its session: the limits the SQL functions answer with
    /// by themselves (a SUBSCRIPTION document's `template_limit`, in pushes stored by SQL too), and the instance's name.
    public var databaseSessionSettings: [String: String] {
        ["laurel.template_limit": String(limits.templates), "laurel.instance": instanceID]
    }

    public init(
        host: String = "127.0.0.1", port: Int = 7420, maxConnections: Int = 10_000, maxLineBytes: Int = 65_536,
        maxRequestsInFlight: Int = 64, maxOutboundBytes: Int = 4 << 20, authTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(300), shutdownGrace: Duration = .seconds(10),
        logTimePolicy: LogTimePolicy = LogTimePolicy(), limits: UserLimits = UserLimits()
    ) {
        self.maxOutboundBytes = maxOutboundBytes
        self.shutdownGrace = shutdownGrace
        self.host = host
        self.port = port
        self.maxConnections = maxConnections
        self.maxLineBytes = maxLineBytes
        self.maxRequestsInFlight = maxRequestsInFlight
        self.authTimeout = authTimeout
        self.idleTimeout = idleTimeout
        self.logTimePolicy = logTimePolicy
        self.limits = limits
    }
}

extension ServerConfiguration {
    /// Each connection's write watermarks: the channel turns unwritable once more than `maxOutboundBytes` wait unsent
    /// (``ConnectionLineWriter`` then says the client is a slow consumer), and writable again at once when fewer do.
    var outboundWaterMark: ChannelOptions.Types.WriteBufferWaterMark {
        .init(low: max(1, maxOutboundBytes), high: max(1, maxOutboundBytes))
    }
}
