import Foundation
import LaurelCore

/// The user's daily and weekly challenges: chosen once per period and kept, with the moment each was completed.
/// Progress is not kept: it is counted from the period's facts (``challengeFacts(from:through:)``) when needed.
public protocol ChallengeRecords {
    /// The challenges stored for the period starting on `start`, by slot (empty when none were chosen).
    func challenges(_ period: ChallengePeriod, startingOn start: LocalDay) throws -> [StoredChallenge]
    /// Stores a period's chosen challenges unless the period has some already, and returns the period's stored
    /// challenges: the first choice stays, whoever made it.
    func storeChallenges(_ choices: [ChallengeChoice], period: ChallengePeriod, startingOn start: LocalDay) throws -> [StoredChallenge]
    /// Marks a challenge completed at `at`; false when it was completed already.
    func completeChallenge(_ challenge: ChallengeChoice, at: Date) throws -> Bool
    /// The XP of every challenge the user completed.
    func challengeXP() throws -> Int
    /// The live logs and lesson completions whose local day lies from `first` through `last`.
    func challengeFacts(from first: LocalDay, through last: LocalDay) throws -> ChallengePeriodFacts
    /// The user's last `count` active days before `day` with their figures, oldest first.
    func activeDayFigures(before day: LocalDay, count: Int) throws -> [ChallengeHistory.Day]
    /// The activities logged (live logs) from `first` through `last`.
    func activitiesLogged(from first: LocalDay, through last: LocalDay) throws -> [String]
}

/// A chosen challenge as stored, with when it was completed.
public struct StoredChallenge: Sendable, Equatable {
    public var choice: ChallengeChoice
    public var completedAt: Date?

    public init(choice: ChallengeChoice, completedAt: Date?) {
        self.choice = choice
        self.completedAt = completedAt
    }
}
