import Foundation
import LaurelCore

/// What LOG commits changed after a version a session holds, when nothing else changed the user's state since:
/// the logs stored after the session's newest one, and the unlocks, challenges, figures and last push seq now. A session on
/// one instance catches up with LOGs stored by another instance with it, instead of loading everything again.
public struct LogsSince: Sendable {
    /// The user's state version now.
    public var version: Int64
    /// The user's last push seq now.
    public var lastSeq: Int64
    /// The live logs stored after the session's newest one, oldest first.
    public var logs: [LoggedLog]
    public var unlocks: [String: Date]
    /// The challenges stored now for the day and week the session asked about (chosen or completed meanwhile).
    public var challenges: [StoredChallenge]
    /// The XP of every challenge the user completed.
    public var challengeXP: Int
    /// The figures now (`state` not filled).
    public var figures: StoredProgress

    public init(
        version: Int64, lastSeq: Int64, logs: [LoggedLog], unlocks: [String: Date], challenges: [StoredChallenge], challengeXP: Int,
        figures: StoredProgress
    ) {
        self.version = version
        self.lastSeq = lastSeq
        self.logs = logs
        self.unlocks = unlocks
        self.challenges = challenges
        self.challengeXP = challengeXP
        self.figures = figures
    }

    /// A live log with its number (`seq`, the order of storing).
    public struct LoggedLog: Sendable {
        public var seq: Int64
        public var fact: LoggedFact

        public init(seq: Int64, fact: LoggedFact) {
            self.seq = seq
            self.fact = fact
        }
    }
}
