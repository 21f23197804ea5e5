import Foundation
import LaurelCore
import LaurelJSON

/// A LOG already evaluated against the user's state as the session holds it, ready to be stored in one
/// statement: the log row with its answer, the unlocks, challenge completions and pushes it caused, and the
/// figures after it. It is
/// stored only if the user's state is still at `expectedVersion`; the store batches commits of many users into
/// one transaction (group commit), each user's part isolated from the others'.
public struct LogCommit: Sendable {
    public var user: UserID
    /// The user's state version the log was evaluated against.
    public var expectedVersion: Int64
    /// The log, its `response` set to the answer a retry gets back.
    public var log: StoredLog
    /// Achievements unlocked by the log, in unlock order.
    public var unlocks: [String]
    /// Challenges chosen for periods that have none stored, to store with the log (the session chose them for this
    /// LOG, the first fact of their period); a period stored meanwhile makes the commit `stale`.
    public var challengesChosen: [ChallengeChoice]
    /// Challenges of the user's current periods that the log completes (their `CHALLENGE` pushes are in `pushes`),
    /// chosen ones among them.
    public var challengesCompleted: [ChallengeChoice]
    /// When the log was evaluated: the time of its unlocks and challenge completions.
    public var decidedAt: Date
    /// Pushes to store with the user's next seqs, in this order, and to announce to every instance.
    public var pushes: [PushDraft]
    /// The figures after the log (the engine's state itself is not written).
    public var figures: StoredProgress
    /// The user's log rate, spent from the allowance stored with the user (so that it holds across instances and
    /// reconnects); nil stores the log whatever the rate.
    public var rateLimit: UserLimits?

    public init(
        user: UserID, expectedVersion: Int64, log: StoredLog, unlocks: [String], challengesChosen: [ChallengeChoice] = [],
        challengesCompleted: [ChallengeChoice] = [], decidedAt: Date, pushes: [PushDraft], figures: StoredProgress, rateLimit: UserLimits? = nil
    ) {
        self.user = user
        self.expectedVersion = expectedVersion
        self.log = log
        self.unlocks = unlocks
        self.challengesChosen = challengesChosen
        self.challengesCompleted = challengesCompleted
        self.decidedAt = decidedAt
        self.pushes = pushes
        self.figures = figures
        self.rateLimit = rateLimit
    }

    /// What became of one commit.
    public enum Outcome: Sendable, Equatable {
        /// Stored; the user's state is now at `version`, the log got `logSeq` (its place among all logs), and the
        /// pushes got these seqs.
        case committed(version: Int64, logSeq: Int64, pushes: [StoredPush])
        /// Nothing stored: another writer changed the user's state since `expectedVersion`, or stored challenges for
        /// a period the commit chose.
        case stale
        /// Nothing stored: the log id is taken (a retry, or a conflicting reuse).
        case duplicate
        /// Nothing stored: the user is over the log rate (its allowance, shared by every instance, is spent).
        case rateLimited
    }
}

/// A push before it is stored: what it says, without its seq.
public struct PushDraft: Sendable, Equatable {
    public var kind: PushKind
    public var data: JSONObject

    public init(kind: PushKind, data: JSONObject) {
        self.kind = kind
        self.data = data
    }

    /// The stored push, once its seq and time are known.
    public func stored(seq: Int64, at: Date) -> StoredPush {
        StoredPush(seq: seq, kind: kind, at: at, data: data)
    }
}

/// The kinds of push that are stored with a seq (protocol.md, Pushes).
public enum PushKind: String, Sendable {
    case unlock = "UNLOCK"
    case level = "LEVEL"
    case streak = "STREAK"
    case challenge = "CHALLENGE"
    case subscription = "SUBSCRIPTION"
}
