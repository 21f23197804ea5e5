import Foundation

/// Something a decision needs that a user's ``UserProgress`` does not hold: ``ProgressEvaluator`` asks for it, the
/// caller reads it from the store at the progress's version and asks again. The route of the write stays the same
/// whatever is missing.
public enum ProgressPiece: Hashable, Sendable {
    /// The stored challenges of a period (a backfill into a past day, a new day's periods).
    case challenges(ChallengeBook.Period)
    /// A fact stored under this idempotency key, if any: a retry gets the first answer back.
    case storedFact(FactKind, id: String)
    /// A log by id, deleted ones included (LOG.DELETE).
    case log(id: String)
    /// Live logs of an activity whose `at` lies within `minutes` of `around` (a new log's speed windows).
    case neighbours(activity: String, around: Date, minutes: Int)
    /// Every live log of an activity (a speed window to track from scratch).
    case activityLogs(String)
    /// Live logs of any activity whose `at` lies in `[from, from + minutes]` (a new reminder's window).
    case logsWithin(from: Date, minutes: Int)
    /// Every live fact (a recomputation: a deletion, a settings change reaching into walked days).
    case allFacts
    /// The user's standings on these ended weeks' global boards (comparative goals), weeks latest first.
    case weekStandings(weeks: [ISOWeek], boards: Set<LeaderboardBoard>)
}

/// The pieces read so far for one decision, by what was asked.
public struct LoadedPieces: Sendable {
    public var storedFacts: [StoredFactKey: StoredFact?] = [:]
    public var logs: [String: StoredLog?] = [:]
    public var neighbours: [String: [LoggedFact]] = [:]
    public var activityLogs: [String: [LoggedFact]] = [:]
    /// By the window's start.
    public var logsWithin: [Date: [LoggedFact]] = [:]
    public var allFacts: ProgressFacts?
    public var weekStandings: WeekStandings?

    public init() {}

    /// Takes on pieces read later for the same decision.
    public mutating func merge(_ other: LoadedPieces) {
        storedFacts.merge(other.storedFacts) { _, later in later }
        logs.merge(other.logs) { _, later in later }
        neighbours.merge(other.neighbours) { _, later in later }
        activityLogs.merge(other.activityLogs) { _, later in later }
        logsWithin.merge(other.logsWithin) { _, later in later }
        if let facts = other.allFacts { allFacts = facts }
        if let standings = other.weekStandings { weekStandings = standings }
    }

    /// A fact's kind and idempotency key.
    public struct StoredFactKey: Hashable, Sendable {
        public var kind: FactKind
        public var id: String

        public init(_ kind: FactKind, _ id: String) {
            self.kind = kind
            self.id = id
        }
    }
}

/// A reported fact as stored under its idempotency key, with what a retry is compared with and the first answer.
public struct StoredFact: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        case log(activityID: String, amount: Int, note: String?)
        case lesson(id: String)
        case event(name: String)
        case reminder
    }

    public var content: Content
    /// The `at` the client sent (nil when the server chose it).
    public var requestedAt: Date?
    /// The first answer, as JSON text.
    public var answer: String?

    public init(content: Content, requestedAt: Date?, answer: String?) {
        self.content = content
        self.requestedAt = requestedAt
        self.answer = answer
    }
}

/// A log as stored, with the figures the rules count and whether it was deleted.
public struct StoredLog: Sendable, Equatable {
    public var id: String
    public var activityID: String
    public var amount: Int
    public var at: Date
    /// The local day of `at` in the user's zone at logging time.
    public var day: LocalDay
    /// The local hour of `at` in the user's zone at logging time.
    public var localHour: Int
    public var note: String?
    public var deleted: Bool

    public init(id: String, activityID: String, amount: Int, at: Date, day: LocalDay, localHour: Int, note: String?, deleted: Bool = false) {
        self.id = id
        self.activityID = activityID
        self.amount = amount
        self.at = at
        self.day = day
        self.localHour = localHour
        self.note = note
        self.deleted = deleted
    }

    /// The log as the rules see it.
    public var fact: LoggedFact {
        LoggedFact(id: id, activity: activityID, amount: amount, at: at, day: day, localHour: localHour)
    }
}
