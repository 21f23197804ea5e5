import Foundation

/// A stored log (LOG in protocol.md).
public struct LogRecord: Codable, Sendable, Equatable {
    public var id: String
    public var activity: String
    public var amount: Int
    public var at: Date
    /// The user's local date of `at`, `YYYY-MM-DD`.
    public var day: String
    public var note: String?
}

/// A fact as LOG, LESSON.DONE and EVENT answer it: a log (`activity`, `amount`), a lesson completion (`lesson`) or
/// an event (`event`).
public struct FactRecord: Codable, Sendable, Equatable {
    public var id: String
    public var activity: String?
    public var amount: Int?
    public var lesson: String?
    public var event: String?
    public var at: Date
    public var day: String
    public var note: String?
}

/// What LOG, LESSON.DONE and EVENT answer: the fact, whether it was a repeat, what it unlocked and the figures
/// after it.
public struct FactAnswer: Decodable, Sendable, Equatable {
    public var log: FactRecord
    public var duplicate: Bool
    public var unlocked: [Achievement]
    public var xp: Int
    public var level: Int
    public var streak: Streak
}

/// What LOG.DELETE answers.
public struct DeletedLog: Decodable, Sendable, Equatable {
    public var log: LogRecord
    public var xp: Int
    public var level: Int
    public var streak: Streak
}

/// A page of LOGS, newest first.
public struct LogPage: Decodable, Sendable, Equatable {
    public var logs: [LogRecord]
    /// The cursor for the next page (`before`), absent on the last.
    public var next: String?
}
