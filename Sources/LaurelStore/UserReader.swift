import Foundation
import LaurelCore
import LaurelJSON

/// One user's stored state as one snapshot sees it, by concern. Synchronous on purpose: an implementation runs the
/// whole read on a database thread, so a request costs one hop there and back. Every read names the user, so no
/// request can reach another user's rows.
public protocol UserReader {
    var user: UserID { get }

    /// The user's version, reload marks, last push seq, figures and log allowance.
    func standing() throws -> UserStanding
    /// The settings in force now and their history.
    func settings() throws -> (current: UserSettings, history: StreakSettingsHistory)
    /// The subscription now, by the database clock.
    func subscription() throws -> SubscriptionState
    /// Custom activities, deleted ones included, oldest first.
    func customActivities() throws -> [Activity]
    /// Templates, oldest first.
    func templates() throws -> [AchievementTemplate]
    /// Achievement id to unlock time.
    func unlocks() throws -> [String: Date]
    /// The stored running state, if there is one.
    func snapshot() throws -> ProgressSnapshot?
    /// The live facts stored after `seqs`, and the newest seqs now.
    func facts(after seqs: FactSeqs) throws -> (facts: ProgressFacts, newest: FactSeqs)
    /// The stored challenges of each of `periods`, in slot order (empty when none were chosen), read in one statement.
    func challenges(of periods: [ChallengeBook.Period]) throws -> [ChallengeBook.Period: [StoredChallenge]]
    /// When each completed challenge of any period was completed, and its XP (the boards' recomputation).
    func completedChallenges() throws -> [(at: Date, xp: Int)]
    /// The fact stored under an idempotency key, if any.
    func storedFact(_ kind: FactKind, id: String) throws -> StoredFact?
    /// The user's standings on the ranked ones of these ended weeks' global boards (``WeekStanding``).
    func weekStandings(weeks: [ISOWeek], boards: Set<LeaderboardBoard>) throws -> [WeekStanding]
    /// A log by id, deleted ones included.
    func log(id: String) throws -> StoredLog?
    /// Live logs of one activity whose `at` lies in the closed interval.
    func logFacts(activity: String, from: Date, through: Date) throws -> [LoggedFact]
    /// Live logs of any activity whose `at` lies between `from` and `through` (inclusive): a reminder's window.
    func logFacts(from: Date, through: Date) throws -> [LoggedFact]

    /// A page of live logs, newest first (LOGS).
    func logs(_ query: LogQuery) throws -> [ListedLog]
    func pushes(after seq: Int64, limit: Int) throws -> [StoredPush]
    func lastPushSeq() throws -> Int64
    /// Everything stored about the user, as one JSON document (ACCOUNT.EXPORT).
    func accountDocument() throws -> JSONValue
    /// The SUBSCRIPTION object of protocol.md, by the database clock.
    func subscriptionDocument() throws -> JSONObject
}

/// Where a user's stored state stands, as the user's progress row keeps it.
public struct UserStanding: Sendable, Equatable {
    public var version: Int64
    /// The version of the last write a session cannot add to what it holds (it loads the user again).
    public var reloadVersion: Int64
    /// The version of the last write that recomputed the running state: an older snapshot is of no use.
    public var rebuiltVersion: Int64
    /// The seq of the newest stored push.
    public var lastSeq: Int64
    public var figures: ProgressFigures
    public var allowance: LogAllowance
    public var latestScores: LatestDayScores

    public init(
        version: Int64, reloadVersion: Int64, rebuiltVersion: Int64, lastSeq: Int64, figures: ProgressFigures, allowance: LogAllowance,
        latestScores: LatestDayScores
    ) {
        self.version = version
        self.reloadVersion = reloadVersion
        self.rebuiltVersion = rebuiltVersion
        self.lastSeq = lastSeq
        self.figures = figures
        self.allowance = allowance
        self.latestScores = latestScores
    }
}

/// The newest log, lesson completion, event and reminder a running state counts, by their seqs (the order of
/// storing).
public struct FactSeqs: Sendable, Equatable {
    public var log: Int64
    public var lesson: Int64
    public var event: Int64
    public var reminder: Int64

    public init(log: Int64 = 0, lesson: Int64 = 0, event: Int64 = 0, reminder: Int64 = 0) {
        self.log = log
        self.lesson = lesson
        self.event = event
        self.reminder = reminder
    }

    /// The newer of each.
    public func merged(with other: FactSeqs) -> FactSeqs {
        FactSeqs(
            log: max(log, other.log), lesson: max(lesson, other.lesson), event: max(event, other.event),
            reminder: max(reminder, other.reminder))
    }
}

/// Where a session stands: the version it holds, the pushes it knows of, and the newest facts it counts.
public struct StoredPosition: Sendable, Equatable {
    public var version: Int64
    public var lastSeq: Int64
    public var seqs: FactSeqs

    public init(version: Int64, lastSeq: Int64, seqs: FactSeqs) {
        self.version = version
        self.lastSeq = lastSeq
        self.seqs = seqs
    }
}

/// Which live logs LOGS returns: newest first (by `at`, then by storing), optionally of one activity, between two
/// local dates (inclusive), and older than the log named by the cursor `beforeLogID`.
public struct LogQuery: Sendable, Equatable {
    public var activityID: String?
    public var fromDay: LocalDay?
    public var toDay: LocalDay?
    public var beforeLogID: String?
    public var limit: Int

    public init(activityID: String? = nil, fromDay: LocalDay? = nil, toDay: LocalDay? = nil, beforeLogID: String? = nil, limit: Int) {
        self.activityID = activityID
        self.fromDay = fromDay
        self.toDay = toDay
        self.beforeLogID = beforeLogID
        self.limit = limit
    }
}

/// A live log as LOGS shows it.
public struct ListedLog: Sendable, Equatable {
    public var id: String
    public var activityID: String
    public var amount: Int
    public var at: Date
    public var day: LocalDay
    public var note: String?

    public init(id: String, activityID: String, amount: Int, at: Date, day: LocalDay, note: String?) {
        self.id = id
        self.activityID = activityID
        self.amount = amount
        self.at = at
        self.day = day
        self.note = note
    }
}
