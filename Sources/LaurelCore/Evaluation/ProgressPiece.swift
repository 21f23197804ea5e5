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
    /// Nil until something is read. Every decision copies its pieces and nearly every one has none: a copy of ten
    /// empty tables held in line retained and released each of them. A table is changed where it is held (`_modify`):
    /// a `set` changed a copy of it first, so each key added to a table that had one copied the table.
    private var read: Read?

    public var storedFacts: [StoredFactKey: StoredFact?] {
        get { read?.storedFacts ?? [:] }
        _modify { yield &changing().storedFacts }
    }
    public var logs: [String: StoredLog?] {
        get { read?.logs ?? [:] }
        _modify { yield &changing().logs }
    }
    public var neighbours: [String: [LoggedFact]] {
        get { read?.neighbours ?? [:] }
        _modify { yield &changing().neighbours }
    }
    public var activityLogs: [String: [LoggedFact]] {
        get { read?.activityLogs ?? [:] }
        _modify { yield &changing().activityLogs }
    }
    /// By the window's start.
    public var logsWithin: [Date: [LoggedFact]] {
        get { read?.logsWithin ?? [:] }
        _modify { yield &changing().logsWithin }
    }
    public var allFacts: ProgressFacts? {
        get { read?.allFacts }
        _modify { yield &changing().allFacts }
    }
    public var weekStandings: WeekStandings? {
        get { read?.weekStandings }
        _modify { yield &changing().weekStandings }
    }

    public init() {}

    /// Takes on pieces read later for the same decision.
    public mutating func merge(_ other: LoadedPieces) {
        guard let later = other.read else { return }
        let read = changing()
        read.storedFacts.merge(later.storedFacts) { _, later in later }
        read.logs.merge(later.logs) { _, later in later }
        read.neighbours.merge(later.neighbours) { _, later in later }
        read.activityLogs.merge(later.activityLogs) { _, later in later }
        read.logsWithin.merge(later.logsWithin) { _, later in later }
        if let facts = later.allFacts { read.allFacts = facts }
        if let standings = later.weekStandings { read.weekStandings = standings }
    }

    /// The pieces to be changed: made on the first change, and copied first when another value holds them too.
    private mutating func changing() -> Read {
        // Asked before anything else holds the tables (a local bound to them would make them shared).
        if isKnownUniquelyReferenced(&read), let read { return read }
        let made = read?.copy() ?? Read()
        read = made
        return made
    }

    /// The tables, changed only through a ``LoadedPieces`` that holds them alone (copy on write): one that two
    /// values share is never changed, which is what makes it safe to share across threads.
    private final class Read: @unchecked Sendable {
        var storedFacts: [StoredFactKey: StoredFact?] = [:]
        var logs: [String: StoredLog?] = [:]
        var neighbours: [String: [LoggedFact]] = [:]
        var activityLogs: [String: [LoggedFact]] = [:]
        var logsWithin: [Date: [LoggedFact]] = [:]
        var allFacts: ProgressFacts?
        var weekStandings: WeekStandings?

        func copy() -> Read {
            let copy = Read()
            (copy.storedFacts, copy.logs, copy.neighbours) = (storedFacts, logs, neighbours)
            (copy.activityLogs, copy.logsWithin, copy.allFacts, copy.weekStandings) = (activityLogs, logsWithin, allFacts, weekStandings)
            return copy
        }
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
