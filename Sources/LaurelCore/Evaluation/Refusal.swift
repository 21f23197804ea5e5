/// Why a change is not made; nothing is stored. The protocol's error codes follow from these one to one.
public enum Refusal: Error, Sendable, Equatable {
    /// The named thing does not exist for this user.
    case notFound(field: String)
    /// The change contradicts what is stored.
    case conflict(String)
    case invalidArgument(field: String, message: String)
    /// The change needs premium (templates).
    case premiumRequired(trialAvailable: Bool, message: String)
    /// Over a per-user limit.
    case tooLarge(limit: Int, message: String)
    /// Over the log allowance; retry after this many milliseconds.
    case rateLimited(retryAfterMs: Int)
}
