import Foundation

/// What ``ProgressEvaluator`` makes of a change.
public enum Evaluation: Sendable {
    /// The progress lacks these pieces: read them and evaluate again.
    case needs(Set<ProgressPiece>)
    /// The change is not made.
    case refused(Refusal)
    case decided(Decision)
}

/// A decided change: the user's progress after it, what to store (in one commit, at the version the progress
/// was at), what to push, and what the verb answers about.
///
/// A reference: a decision is handed from the evaluator through the write's route to the answer, across the
/// route's suspensions; as a value of some 620 bytes (most of them its writes) it was moved byte for byte about
/// ten times a LOG, into and out of the task's frames. Everything but the writes is a `let`, read in place; the
/// writes are taken once, by the route that commits them (``takeWrites()``), before the decision is shared, which
/// is why the class may be `Sendable` with that one `var`.
public final class Decision: @unchecked Sendable {
    /// The progress after the change, as the session keeps it.
    public let shared: SharedProgress
    /// What to store; empty once taken for the commit.
    public private(set) var writes: ProgressWrites
    /// In push order: unlocks, completed challenges, the level, the streak.
    public let events: [ProgressEvent]
    public let outcome: ChangeOutcome
    /// The moment the change was decided: the time of its unlocks and completions.
    public let decidedAt: Date

    init(shared: SharedProgress, writes: consuming ProgressWrites, events: [ProgressEvent], outcome: ChangeOutcome, decidedAt: Date) {
        self.shared = shared
        self.writes = writes
        self.events = events
        self.outcome = outcome
        self.decidedAt = decidedAt
    }

    /// Whether the decision stores nothing (its writes read where they are: asked from another module of a copy,
    /// every table in them was retained).
    public var storesNothing: Bool { writes.isEmpty }

    /// The writes, moved out for the commit (the decision keeps none): only the route that made the decision, and
    /// before it hands the decision on.
    public func takeWrites() -> ProgressWrites {
        exchange(&writes, with: ProgressWrites())
    }

    /// The progress after the change, read in place.
    @inlinable public var progress: UserProgress {
        _read { yield shared.progress }
    }

    /// The figures after the change.
    @inlinable public var figures: ProgressFigures { shared.figures }
}

/// Something worth a push.
public enum ProgressEvent: Sendable, Equatable {
    /// An achievement unlocked (its ACHIEVEMENT object is shown from the progress after the change).
    case unlocked(String)
    case challengeCompleted(StoredChallenge)
    /// A level reached for the first time.
    case levelReached(level: Int, xp: Int)
    case streak(StreakEvent.Kind, StreakState)
    /// The current week met the weekly goal (once a week).
    case weeklyGoalMet(WeeklyGoalStreak)
}

/// What a decided change answers about, by change.
public enum ChangeOutcome: Sendable {
    /// A new fact, as stored.
    case recorded(NewFact)
    /// A retry of a fact stored before: its first answer (JSON text).
    case replayed(answer: String)
    /// A reminder as it stands now, new or (`duplicate`) reported again.
    case reminder(ReminderFact, duplicate: Bool)
    case logDeleted(StoredLog)
    case settings(UserSettings)
    case activity(Activity)
    case templates([AchievementTemplate])
    case templateDeleted(id: String, removedAchievements: Int)
    case imported(created: [AchievementTemplate], skipped: [(name: String, reason: String)])
    /// Today's challenges (CHALLENGES), from the progress after the change.
    case challenges
    /// Nothing to answer about (a catch-up).
    case none
}

/// A new reported fact as it is stored.
public struct NewFact: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case log(activityID: String, amount: Int, localHour: Int, note: String?)
        case lesson(Catalog.Lesson)
        case event(name: String)
        /// The window in force on its day (minutes), and whether a live log answered it when stored.
        case reminder(windowMinutes: Int, answered: Bool)
    }

    public var content: Content
    public var id: String
    public var at: Date
    /// The local day of `at` in the user's zone now.
    public var day: LocalDay
    /// The `at` the client sent, nil when the server chose it.
    public var requestedAt: Date?

    public init(content: Content, id: String, at: Date, day: LocalDay, requestedAt: Date?) {
        self.content = content
        self.id = id
        self.at = at
        self.day = day
        self.requestedAt = requestedAt
    }

    public var kind: FactKind {
        switch content {
        case .log: .log
        case .lesson: .lesson
        case .event: .event
        case .reminder: .reminder
        }
    }
}

/// What a decided change stores, as rows of the user's tables; the store writes all of it in one statement that
/// first checks the user is still at the version the change was decided against.
public struct ProgressWrites: Sendable {
    public var fact: NewFact?
    public var deletedLog: String?
    /// New settings, in force from the local day.
    public var settings: (UserSettings, effective: LocalDay)?
    /// A custom activity created or changed, as it is now.
    public var activity: Activity?
    /// Templates created or changed, as they are now.
    public var templates: [AchievementTemplate] = []
    public var deletedTemplates: [String] = []
    /// Unlocks stored under these prefixes go (a deleted template's).
    public var deletedUnlockPrefixes: [String] = []
    /// The marketplace listing a new template was installed from (its install is counted with the commit).
    public var installedListing: String?
    /// Achievements unlocked now, in unlock order.
    public var unlocks: [String] = []
    /// Challenges chosen now for periods that had none (with their completion, when completed at once).
    public var challengesChosen: [StoredChallenge] = []
    /// Challenges stored before and completed now.
    public var challengesCompleted: [ChallengeChoice] = []
    /// The figures after the change; nil when they did not change.
    public var figures: ProgressFigures?
    /// The log allowance after the change, when a new fact spent from it.
    public var allowance: LogAllowance?
    /// How the change moves the user's board scores (``ScoreChanges``), stored with it.
    public var scores = ScoreChanges()
    /// The running state was recomputed, not updated: a snapshot of it is to be stored with the commit.
    public var rebuilt = false
    /// The change is more than new facts, unlocks and challenges: sessions holding an earlier version load the
    /// user again rather than add what changed.
    public var reloadsSessions = false

    public init() {}

    /// Whether there is nothing to store (a read-only outcome, a retry, a catch-up that changed nothing).
    public var isEmpty: Bool {
        // Asked of every write. The cases are matched, not compared with nil: `fact == nil` copied the fact (its
        // strings retained and released) only to compare it, and the settings, the activity and the figures likewise.
        guard case .none = fact, case .none = deletedLog, case .none = settings, case .none = activity, case .none = figures,
              case .none = allowance
        else { return false }
        return templates.isEmpty && deletedTemplates.isEmpty && deletedUnlockPrefixes.isEmpty && unlocks.isEmpty
            && challengesChosen.isEmpty && challengesCompleted.isEmpty
    }
}
