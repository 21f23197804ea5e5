import LaurelCore

extension ProtocolError {
    /// The error that answers a change the rules refused.
    public init(_ refusal: Refusal) {
        switch refusal {
        case .notFound(let field): self = .notFound(field: field)
        case .conflict(let message): self = .conflict(message)
        case .invalidArgument(let field, let message): self = .invalidArgument(field: field, message: message)
        case .premiumRequired(let trialAvailable, let message):
            self = .premiumRequired(feature: "templates", trialAvailable: trialAvailable, message: message)
        case .tooLarge(let limit, let message): self = .tooLarge(limit: limit, message: message)
        case .rateLimited(let retryAfterMs): self = .rateLimited(retryAfterMs: retryAfterMs)
        }
    }
}
