import Foundation
import LaurelCore

/// One decided write of one user, ready to be stored in one statement: the rows the rules decided
/// (``ProgressWrites``), the pushes and the answer a retry gets back as the server rendered them, and the version it
/// was decided against. It is stored only if the user is still at that version.
///
/// An object that never changes: a commit is handed from the session to the group commit's queue, its batch and the
/// flusher's thread, and each of those hands is one reference, not a copy of its rows.
public final class UserCommit: Sendable {
    public let user: UserID
    /// The user's version the write was decided against.
    public let expectedVersion: Int64
    public let writes: ProgressWrites
    /// When it was decided: the time of its unlocks, completions, choices and new rows.
    public let decidedAt: Date
    /// Pushes to store with the user's next seqs, in this order.
    public let pushes: [PushDraft]
    /// The answer a retry of the new fact gets back (its JSON text's UTF-8, as the writer made it: the bytes the
    /// connection's answer line and the batch are written from, never a `String`, whose making checks the UTF-8
    /// again); nil without a new fact.
    public let answer: [UInt8]?
    /// The running state after the write, when it was recomputed (JSON text, ``ProgressSnapshot``).
    public let snapshot: String?
    /// How the write's score changes (`writes.scores`) are stored on top of the latest day's scores the user had at
    /// `expectedVersion`.
    public let scoreRows: LatestDayScores.Rows
    /// The change announced with the commit to every instance, when there is one (``AnnouncedChange``).
    public let announcement: AnnouncedChange?
    /// Whether the pushes are announced with the commit, so that the instances where the user has other connections
    /// deliver them without a read: not where no other instance runs, since no one would read them.
    public let announcesPushes: Bool

    /// - Parameters:
    ///   - scoresBefore: the latest day's scores stored at `expectedVersion`.
    ///   - writes: taken over: a decision hands its writes to its commit (moved, not copied: a copy retained every
    ///     table in them) and reads them back from ``writes``.
    ///   - announcing: the change to announce with the commit, given its writes and the latest day's scores it
    ///     leaves; nil for none (``AnnouncedChange/init(writes:decidedAt:progress:latestScores:)`` makes it for a user
    ///     another instance writes too).
    ///   - announcingPushes: whether the pushes are announced (``announcesPushes``).
    public init(
        user: UserID, expectedVersion: Int64, writes: consuming ProgressWrites, decidedAt: Date, pushes: [PushDraft], answer: [UInt8]?,
        snapshot: String?, scoresBefore: LatestDayScores,
        announcing: (_ writes: ProgressWrites, _ latestScores: LatestDayScores) -> AnnouncedChange? = { _, _ in nil },
        announcingPushes: Bool = true
    ) {
        self.user = user
        self.expectedVersion = expectedVersion
        self.decidedAt = decidedAt
        self.pushes = pushes
        self.answer = answer
        self.snapshot = snapshot
        let scoreRows = scoresBefore.moved(by: writes.scores, at: decidedAt)
        self.scoreRows = scoreRows
        announcement = announcing(writes, scoresBefore.after(scoreRows))
        announcesPushes = announcingPushes
        // Last, so that it is a move: read from `self` above, the writes were copied for each look.
        self.writes = writes
    }
}

/// What became of one commit.
public enum CommitOutcome: Sendable, Equatable {
    /// Stored; the user is now at `version` with pushes up to `lastSeq`, the new fact (if any) got `factSeq`, and the
    /// pushes got these seqs.
    case committed(version: Int64, lastSeq: Int64, factSeq: Int64?, pushes: [StoredPush])
    /// Nothing stored: another writer changed the user's state since the version the write was decided against.
    case stale
    /// Nothing stored: the new fact's id is taken (a retry, or a conflicting reuse).
    case duplicate
}

/// What was committed for a user after a session's position, when all of it can be added to what the session holds:
/// the facts stored since, and the unlocks, challenges of the session's periods, figures and allowance now.
public struct ProgressChanges: Sendable {
    public var version: Int64
    public var lastSeq: Int64
    public var logs: [LoggedFact]
    public var lessons: [LessonCompletion]
    public var events: [ReportedEvent]
    /// The newest seqs now, of the facts above and before.
    public var seqs: FactSeqs
    public var unlocks: [String: Date]
    /// The stored challenges of the periods asked about.
    public var challenges: [ChallengeBook.Period: [StoredChallenge]]
    public var figures: ProgressFigures
    public var allowance: LogAllowance
    public var latestScores: LatestDayScores

    public init(
        version: Int64, lastSeq: Int64, logs: [LoggedFact], lessons: [LessonCompletion], events: [ReportedEvent], seqs: FactSeqs,
        unlocks: [String: Date], challenges: [ChallengeBook.Period: [StoredChallenge]], figures: ProgressFigures, allowance: LogAllowance,
        latestScores: LatestDayScores
    ) {
        self.version = version
        self.lastSeq = lastSeq
        self.logs = logs
        self.lessons = lessons
        self.events = events
        self.seqs = seqs
        self.unlocks = unlocks
        self.challenges = challenges
        self.figures = figures
        self.allowance = allowance
        self.latestScores = latestScores
    }
}
