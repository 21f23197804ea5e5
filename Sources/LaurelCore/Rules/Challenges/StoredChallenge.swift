import Foundation

/// A chosen challenge as stored, with when it was completed (never cleared: completion is permanent).
public struct StoredChallenge: Sendable, Equatable {
    public var choice: ChallengeChoice
    public var completedAt: Date?

    public init(choice: ChallengeChoice, completedAt: Date?) {
        self.choice = choice
        self.completedAt = completedAt
    }
}
