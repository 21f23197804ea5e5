import LaurelProtocol

/// CHALLENGES: not available in this version yet; it answers `internal` until challenges are kept.
enum ChallengeRequests {
    static func challenges(in context: RequestContext) async throws -> RequestOutcome {
        throw ProtocolError(code: .internal, message: "CHALLENGES is not available in this version yet")
    }
}
