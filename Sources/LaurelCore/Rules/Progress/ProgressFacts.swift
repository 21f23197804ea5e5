import Foundation

/// A live log as the rules see it. Its `day` and `localHour` are read in the user's time zone at the time
/// of logging and stored with the log; they are never recomputed, so a later time-zone change moves nothing.
public struct LoggedFact: Hashable, Sendable, Codable {
    public var id: String
    public var activity: String
    /// 1...100000.
    public var amount: Int
    public var at: Date
    public var day: LocalDay
    /// The local hour of `at` (0...23), for `logs_before` and `logs_after`.
    public var localHour: Int

    /// - Parameters:
    ///   - id: the log's id.
    ///   - activity: the activity's id.
    ///   - amount: how much was done.
    ///   - at: when it was done.
    ///   - day: the stored local date of `at`.
    ///   - localHour: the stored local hour of `at`.
    public init(id: String, activity: String, amount: Int, at: Date, day: LocalDay, localHour: Int) {
        self.id = id
        self.activity = activity
        self.amount = amount
        self.at = at
        self.day = day
        self.localHour = localHour
    }

    /// A log read in `zone`, the user's time zone at the time of logging.
    public init(id: String, activity: String, amount: Int, at: Date, zone: TimeZone) {
        let local = LocalDateTime(of: at, in: zone)
        self.init(id: id, activity: activity, amount: amount, at: at, day: local.day, localHour: local.hour)
    }

    /// `at` in whole milliseconds, so that window comparisons are exact integer work.
    public var millisecondsSince1970: Int64 {
        Int64((at.timeIntervalSince1970 * 1000).rounded())
    }
}

/// A lesson completed by the user, on the local day it was completed. A lesson counts once, however often
/// it is completed; each completion makes its day active.
public struct LessonCompletion: Hashable, Sendable, Codable {
    public var lesson: String
    public var category: String
    public var day: LocalDay

    public init(lesson: String, category: String, day: LocalDay) {
        self.lesson = lesson
        self.category = category
        self.day = day
    }
}

/// A social event the client reported (`share`, `invite`); it counts for `events` rules only and does not
/// make a day active.
public struct ReportedEvent: Hashable, Sendable, Codable {
    public var name: String
    public var at: Date

    public init(name: String, at: Date) {
        self.name = name
        self.at = at
    }
}

/// Every stored fact the measures derive from.
public struct ProgressFacts: Hashable, Sendable, Codable {
    /// Live logs (deleted ones left out), in any order.
    public var logs: [LoggedFact]
    /// Lesson completions in the order they were recorded; a repeated lesson counts at its first completion, and
    /// every completion makes its day active.
    public var lessons: [LessonCompletion]
    public var events: [ReportedEvent]
    /// Reminders the app showed, in any order.
    public var reminders: [ReminderFact]

    public init(logs: [LoggedFact] = [], lessons: [LessonCompletion] = [], events: [ReportedEvent] = [], reminders: [ReminderFact] = []) {
        self.logs = logs
        self.lessons = lessons
        self.events = events
        self.reminders = reminders
    }

    /// The lesson completions that count: the first of each lesson.
    public var countedLessons: [LessonCompletion] {
        var seen: Set<String> = []
        return lessons.filter { seen.insert($0.lesson).inserted }
    }
}
