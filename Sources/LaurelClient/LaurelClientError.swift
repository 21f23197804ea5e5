import LaurelJSON

/// Why a request of a ``LaurelClient`` did not get an answer it could use.
public enum LaurelClientError: Error, Sendable, Equatable {
    /// The server answered `ERR`: `code` is the protocol's error code (`invalid_argument`, `not_found`, ...),
    /// `details` the error object's other fields (`field`, `retry_after_ms`, `limit`, ...).
    case server(code: String, message: String, details: [String: JSONValue])
    /// The connection ended before the answer came. Whether the request took effect is unknown: repeat it only if
    /// it is safe to (a LOG with the same id is; the outbox does that by itself).
    case connectionLost
    /// The token was refused: the client stopped, since trying again would only be refused again.
    case authenticationFailed
    /// The client was stopped.
    case stopped
    /// The answer did not have the shape of the request's answer.
    case malformedAnswer(String)

    /// The protocol's error code of a `server` error.
    public var code: String? {
        if case .server(let code, _, _) = self { return code }
        return nil
    }
}
