import Foundation

/// A write a user asks for, as ``ProgressEvaluator`` decides it. Every verb that changes a user's stored state is
/// one of these; the handler has checked the request's own fields already.
public enum UserChange: Sendable {
    /// A LOG, LESSON.DONE, EVENT or REMINDER.
    case report(ReportedFact)
    /// LOG.DELETE.
    case deleteLog(id: String)
    /// SETTINGS with at least one field.
    case changeSettings(SettingsChange)
    /// ACTIVITY.CREATE.
    case createActivity(ActivityDraft)
    /// ACTIVITY.DELETE (`deleted` true) or ACTIVITY.RESTORE, naming the activity by id or name.
    case setActivityDeleted(String, deleted: Bool)
    /// TEMPLATE.CREATE, its type and tiers resolved.
    case createTemplates(TemplateDraft)
    /// TEMPLATE.UPDATE.
    case updateTemplate(TemplateChange)
    /// TEMPLATE.DELETE.
    case deleteTemplate(id: String)
    /// TEMPLATE.IMPORT: each entry of the document as read, or why it could not be read.
    case importTemplates([(name: String, entry: Result<PortableTemplate, ImportProblem>)])
    /// CHALLENGES of today: the periods nobody needed yet are chosen now.
    case chooseChallenges
    /// Nothing new: what a new day or a catalog change means (at AUTH, and before any write that needs a clean
    /// slate).
    case catchUp
}

/// A fact a client reports under its own idempotency key.
public struct ReportedFact: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        /// An activity by id or name, how much, and a note.
        case log(activity: String, amount: Int, note: String?)
        /// A lesson of the catalog.
        case lesson(Catalog.Lesson)
        /// An event name the catalog accepts.
        case event(name: String)
        /// A reminder the app showed.
        case reminder
    }

    public var content: Content
    /// The client's idempotency key, if it sent one.
    public var id: String?
    /// When the client says it happened (`at` as sent); now when nil.
    public var at: Date?

    public init(_ content: Content, id: String?, at: Date?) {
        self.content = content
        self.id = id
        self.at = at
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

/// The kinds of reported fact, each stored under its own idempotency keys.
public enum FactKind: String, Sendable, Hashable {
    case log, lesson, event, reminder

    /// What an id names, for the conflict of an id reused for something else.
    public var noun: String {
        switch self {
        case .log: "log"
        case .lesson: "lesson completion"
        case .event: "event"
        case .reminder: "reminder"
        }
    }
}

/// SETTINGS' changes; nil leaves a setting as it is.
public struct SettingsChange: Sendable, Hashable {
    public var timeZone: String?
    /// `.some(nil)` clears the rest day.
    public var restDay: Weekday??
    public var vacation: Bool?
    /// Active days a week, 1 to 7.
    public var weeklyGoal: Int?
    /// Minutes after a reminder in which a log answers it, 5 to 240.
    public var reminderWindowMinutes: Int?
    /// Listed on global leaderboards or not.
    public var leaderboards: Bool?

    public init(
        timeZone: String? = nil, restDay: Weekday?? = nil, vacation: Bool? = nil, weeklyGoal: Int? = nil, reminderWindowMinutes: Int? = nil,
        leaderboards: Bool? = nil
    ) {
        self.timeZone = timeZone
        self.restDay = restDay
        self.vacation = vacation
        self.weeklyGoal = weeklyGoal
        self.reminderWindowMinutes = reminderWindowMinutes
        self.leaderboards = leaderboards
    }
}

/// A custom activity to create.
public struct ActivityDraft: Sendable, Hashable {
    public var name: String
    public var unit: ActivityUnit
    public var icon: String?

    public init(name: String, unit: ActivityUnit, icon: String?) {
        self.name = name
        self.unit = unit
        self.icon = icon
    }
}

/// Templates to create: for one activity (by id or name), or for every live activity (`activity` nil).
public struct TemplateDraft: Sendable, Hashable {
    public var activity: String?
    public var type: TemplateType
    public var tiers: [TemplateTier]
    public var name: String?
    /// The marketplace listing the template is installed from (TEMPLATE.INSTALL).
    public var listingID: String?
    /// A combo template's activities (by id or name) and amounts; `activity` is then nil.
    public var combo: [ComboDraftPart]

    public init(
        activity: String?, type: TemplateType, tiers: [TemplateTier], name: String?, listingID: String? = nil, combo: [ComboDraftPart] = []
    ) {
        self.activity = activity
        self.type = type
        self.tiers = tiers
        self.name = name
        self.listingID = listingID
        self.combo = combo
    }
}

/// One part of a combo as a request names it: an activity by id or name, and its daily amount.
public struct ComboDraftPart: Sendable, Hashable {
    public var activity: String
    public var amount: Int

    public init(activity: String, amount: Int) {
        self.activity = activity
        self.amount = amount
    }
}

/// TEMPLATE.UPDATE's changes; nil leaves a field as it is.
public struct TemplateChange: Sendable, Hashable {
    public var id: String
    public var name: String?
    public var tiers: [TemplateTier]?
    public var active: Bool?

    public init(id: String, name: String? = nil, tiers: [TemplateTier]? = nil, active: Bool? = nil) {
        self.id = id
        self.name = name
        self.tiers = tiers
        self.active = active
    }
}

/// Why an entry of an imported document could not be read.
public struct ImportProblem: Error, Sendable, Hashable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
