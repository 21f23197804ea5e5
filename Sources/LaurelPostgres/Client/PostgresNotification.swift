/// One `NOTIFY` received by a `PostgresNotificationListener`.
public struct PostgresNotification: Sendable, Hashable {
    /// The channel, exactly as given to `pg_notify` or `NOTIFY`.
    public var channel: String
    /// The payload; empty when none was given.
    public var payload: String
    /// The process id of the backend that sent it (`PostgresBackendRoster` tells whose it is); 0 when unknown.
    public var senderPID: Int32

    public init(channel: String, payload: String, senderPID: Int32 = 0) {
        self.channel = channel
        self.payload = payload
        self.senderPID = senderPID
    }
}
