/// One `NOTIFY` received by a `PostgresNotificationListener`.
public struct PostgresNotification: Sendable, Hashable {
    /// The channel, exactly as given to `pg_notify` or `NOTIFY`.
    public var channel: String
    /// The payload; empty when none was given.
    public var payload: String

    public init(channel: String, payload: String) {
        self.channel = channel
        self.payload = payload
    }
}
