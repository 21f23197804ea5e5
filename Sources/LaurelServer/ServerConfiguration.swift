import LaurelCore

/// How a Laurel server listens and treats its connections (operations.md lists the flags and defaults).
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var maxConnections: Int
    /// The longest request line, in bytes without the LF.
    public var maxLineBytes: Int
    /// Requests a connection may have unanswered before the server stops reading from it.
    public var maxRequestsInFlight: Int
    public var authTimeout: Duration
    public var idleTimeout: Duration
    public var logTimePolicy: LogTimePolicy
    public var limits: UserLimits

    public init(
        host: String = "127.0.0.1", port: Int = 7420, maxConnections: Int = 10_000, maxLineBytes: Int = 65_536,
        maxRequestsInFlight: Int = 64, authTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(300),
        logTimePolicy: LogTimePolicy = LogTimePolicy(), limits: UserLimits = UserLimits()
    ) {
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
