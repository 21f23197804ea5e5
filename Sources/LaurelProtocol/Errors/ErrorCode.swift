/// The machine-readable `code` of an error answer; clients switch on it (protocol.md, "Errors").
public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
    /// The line is not `TAG VERB [JSON]`, or the JSON does not parse.
    case badRequest = "bad_request"
    /// No such verb; details: `verb`.
    case unknownVerb = "unknown_verb"
    /// A field is missing, of the wrong type, out of range, or unknown; details: `field`.
    case invalidArgument = "invalid_argument"
    /// A verb other than AUTH, PING or QUIT before AUTH succeeded.
    case notAuthenticated = "not_authenticated"
    /// Wrong or revoked token.
    case authFailed = "auth_failed"
    /// The named thing does not exist for this user; details: `field`.
    case notFound = "not_found"
    /// The request contradicts stored state.
    case conflict
    /// The verb needs premium; details: `feature`, `trial_available`.
    case premiumRequired = "premium_required"
    /// The user or connection exceeded its rate; details: `retry_after_ms`.
    case rateLimited = "rate_limited"
    /// A list or document is over its limit; details: `limit`.
    case tooLarge = "too_large"
    /// A line was longer than `max_line` (untagged only); details: `limit`.
    case lineTooLong = "line_too_long"
    /// The database cannot be reached; details: `retryable: true`.
    case unavailable
    /// A bug; nothing was changed.
    case `internal`
}
