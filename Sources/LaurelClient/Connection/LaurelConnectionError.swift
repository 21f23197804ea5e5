/// Why a ``LaurelConnection`` could not give what was asked of it.
public enum LaurelConnectionError: Error, Sendable, Equatable {
    /// The connection ended before the line waited for (the greeting, an answer) came, or was closed already.
    /// Whether a request sent took effect is unknown.
    case closed
    /// The server's first line was not `* HELLO`; it is given as received. A server at its connection limit sends
    /// `* BYE {"reason":"too_many_connections"}` instead.
    case notGreeted(String)
}
