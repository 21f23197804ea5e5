import Foundation
import LaurelCore
import LaurelJSON

/// What the user did: logs, lesson completions and reported events, each under its idempotency key with the
/// first answer it got.
public protocol FactRecords {
    /// A log by its idempotency key, deleted ones included.
    func log(id: String) throws -> StoredLog?
    func insertLog(_ log: StoredLog) throws
    /// Spends one new fact from the user's log allowance, which every instance shares (rules.md "Limits"): false,
    /// with nothing spent, when the user is over `limits`' rate.
    func spendLogAllowance(_ limits: UserLimits) throws -> Bool
    func setLogResponse(id: String, response: JSONValue) throws
    func markLogDeleted(id: String) throws
    func logs(_ query: LogQuery) throws -> [StoredLog]
    /// Live logs of one activity whose `at` lies in the closed interval, for speed windows.
    func logFacts(activity: String, from: Date, through: Date) throws -> [LoggedFact]
    /// Every live log, lesson completion and event: the input of a full recomputation.
    func allFacts() throws -> ProgressFacts
    /// Live logs stored after the log numbered `seq` (by `laurel.logs.seq`), in that order, with their numbers.
    func liveLogs(afterSeq seq: Int64) throws -> [(seq: Int64, fact: LoggedFact)]
    /// The number of the newest live log (0 when there is none).
    func lastLogSeq() throws -> Int64

    func lessonCompletion(id: String) throws -> StoredLesson?
    func insertLessonCompletion(_ lesson: StoredLesson) throws
    func setLessonResponse(id: String, response: JSONValue) throws
    func reportedEvent(id: String) throws -> StoredEvent?
    func insertReportedEvent(_ event: StoredEvent) throws
    func setReportedEventResponse(id: String, response: JSONValue) throws
}

/// A log as stored. `requestedAt` is the `at` the client sent, nil when the server chose it; `response` is the
/// first answer, replayed when the same idempotency key comes again.
public struct StoredLog: Sendable, Equatable {
    public var id: String
    public var activityID: String
    public var amount: Int
    public var at: Date
    /// The local day of `at` in the user's zone at logging time.
    public var day: LocalDay
    public var note: String?
    public var requestedAt: Date?
    public var deleted: Bool
    public var response: JSONValue?
    /// The local hour of `at` in the user's zone at logging time.
    public var localHour: Int?

    public init(
        id: String, activityID: String, amount: Int, at: Date, day: LocalDay, note: String?,
        requestedAt: Date?, deleted: Bool = false, response: JSONValue? = nil, localHour: Int? = nil
    ) {
        self.id = id
        self.activityID = activityID
        self.amount = amount
        self.at = at
        self.day = day
        self.note = note
        self.requestedAt = requestedAt
        self.deleted = deleted
        self.response = response
        self.localHour = localHour
    }
}

/// A completed lesson as stored; `id` is the request's idempotency key.
public struct StoredLesson: Sendable, Equatable {
    public var id: String
    public var lessonID: String
    public var category: String
    public var at: Date
    public var day: LocalDay
    public var requestedAt: Date?
    public var response: JSONValue?

    public init(id: String, lessonID: String, category: String, at: Date, day: LocalDay, requestedAt: Date?, response: JSONValue? = nil) {
        self.id = id
        self.lessonID = lessonID
        self.category = category
        self.at = at
        self.day = day
        self.requestedAt = requestedAt
        self.response = response
    }
}

/// A reported event (`share`, `invite`) as stored; `id` is the request's idempotency key.
public struct StoredEvent: Sendable, Equatable {
    public var id: String
    public var name: String
    public var at: Date
    public var requestedAt: Date?
    public var response: JSONValue?

    public init(id: String, name: String, at: Date, requestedAt: Date?, response: JSONValue? = nil) {
        self.id = id
        self.name = name
        self.at = at
        self.requestedAt = requestedAt
        self.response = response
    }
}

/// Which live logs LOGS returns: newest first (by `at`, then by insertion), optionally of one activity, between
/// two local dates (inclusive), and older than the log named by the cursor `beforeLogID`.
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
