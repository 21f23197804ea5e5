import Foundation
import LaurelCore
import LaurelJSON

/// One user's stored facts, as seen inside one transaction. Synchronous on purpose: an implementation runs the
/// whole unit of work on a database thread, so a request costs one hop there and back.
public protocol UserRecords {
    var user: UserID { get }

    func currentSettings() throws -> UserSettings
    func appendSettings(_ settings: UserSettings) throws
    /// Every rest-day and vacation change, each from the local day it was made on.
    func streakSettingsHistory() throws -> StreakSettingsHistory

    func customActivities(includeDeleted: Bool) throws -> [Activity]
    func customActivity(id: String) throws -> Activity?
    /// Case-insensitive; deleted activities included.
    func customActivity(named name: String) throws -> Activity?
    func customActivityCount() throws -> Int
    func insertCustomActivity(name: String, unit: ActivityUnit, icon: String?) throws -> Activity
    func setCustomActivityDeleted(id: String, deleted: Bool) throws -> Activity

    /// A log by its idempotency key, deleted ones included.
    func log(id: String) throws -> StoredLog?
    func insertLog(_ log: StoredLog) throws
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

    /// The user's templates, oldest first.
    func templates() throws -> [AchievementTemplate]
    func template(id: String) throws -> AchievementTemplate?
    func insertTemplate(name: String, activityID: String, type: TemplateType, tiers: [TemplateTier]) throws -> AchievementTemplate
    /// Saves name, tiers and activity state; returns the template as stored.
    func updateTemplate(_ template: AchievementTemplate) throws -> AchievementTemplate
    func deleteTemplate(id: String) throws
    /// Deactivates the activity's active templates with `reason`, or reactivates those inactive for `reason`;
    /// returns how many changed.
    func setTemplatesActive(_ active: Bool, activityID: String, reason: String) throws -> Int
    /// Removes unlocks whose achievement id starts with `prefix`; returns how many.
    func deleteUnlocks(withPrefix prefix: String) throws -> Int

    /// Everything stored about the user, as one document (ACCOUNT.EXPORT).
    func accountDocument() throws -> JSONValue
    /// Removes the user and all their data; every instance closes the user's connections.
    func deleteAccount() throws

    /// Achievement id to unlock time.
    func unlocks() throws -> [String: Date]
    /// Records an unlock; false when the achievement was unlocked before (nothing changes then).
    func insertUnlock(achievementID: String, at: Date) throws -> Bool

    func subscription() throws -> SubscriptionState
    /// The SUBSCRIPTION object of protocol.md, by the database clock.
    func subscriptionDocument() throws -> JSONObject
    /// Starts the user's trial (premium for 14 days, once per user ever) and stores the SUBSCRIPTION push that
    /// tells about it, announced to every instance on commit. Nil when the trial was used before; nothing
    /// changes then.
    func startTrial() throws -> StoredPush?

    /// The version of everything the user's evaluation reads; a writing unit of work has moved it on already.
    func stateVersion() throws -> Int64
    /// The figures, and the state version the stored engine state belongs to, without the state itself.
    func progress() throws -> StoredProgress
    /// The engine's state (JSON text), when there is one.
    func progressState() throws -> String?
    /// Saves the figures, and the engine state when `progress.state` is set (as the state at `stateVersion()`).
    func saveProgress(_ progress: StoredProgress) throws

    /// Stores a push and returns it with its `seq`, the next of the user's sequence.
    func appendPush(_ push: PushDraft) throws -> StoredPush
    func pushes(after seq: Int64, limit: Int) throws -> [StoredPush]
    func lastPushSeq() throws -> Int64
    /// Tells every server instance, once this transaction commits, that the user has pushes up to `seq`.
    func announcePushes(through seq: Int64) throws
}

/// A log as stored. `requestedAt` is the `at` the client sent, nil when the server chose it; `response` is the
/// first answer, replayed when the same idempotency key comes again.
public struct StoredLog: Sendable, Equatable {
    public var id: String
    public var activityID: String
    public var amount: Int
    public var at: Date
    public var day: String
    public var note: String?
    public var requestedAt: Date?
    public var deleted: Bool
    public var response: JSONValue?
    /// The local hour of `at` in the user's zone at logging time.
    public var localHour: Int?

    public init(
        id: String, activityID: String, amount: Int, at: Date, day: String, note: String?,
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
    public var day: String
    public var requestedAt: Date?
    public var response: JSONValue?

    public init(id: String, lessonID: String, category: String, at: Date, day: String, requestedAt: Date?, response: JSONValue? = nil) {
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
    public var fromDay: String?
    public var toDay: String?
    public var beforeLogID: String?
    public var limit: Int

    public init(activityID: String? = nil, fromDay: String? = nil, toDay: String? = nil, beforeLogID: String? = nil, limit: Int) {
        self.activityID = activityID
        self.fromDay = fromDay
        self.toDay = toDay
        self.beforeLogID = beforeLogID
        self.limit = limit
    }
}

/// The derived figures kept for a user (they can always be recomputed from the facts).
public struct StoredProgress: Sendable, Equatable {
    public var xp: Int
    public var level: Int
    public var maxLevel: Int
    public var currentStreak: Int
    public var longestStreak: Int
    /// The streak as the user last saw it (a STREAK push tells what changed since); nil before the first save.
    public var shownStreak: StreakState?
    /// The engine's running state, as JSON text (not filled by `progress()`).
    public var state: String?
    /// The user's state version `state` belongs to (the stored state is used only while it is the user's).
    public var stateVersion: Int64

    public init(
        xp: Int = 0, level: Int = 1, maxLevel: Int = 1, currentStreak: Int = 0, longestStreak: Int = 0,
        shownStreak: StreakState? = nil, state: String? = nil, stateVersion: Int64 = 0
    ) {
        self.shownStreak = shownStreak
        self.stateVersion = stateVersion
        self.xp = xp
        self.level = level
        self.maxLevel = maxLevel
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.state = state
    }
}

/// A push kept for replay (`AUTH {"resume_after"}`, NOTIFICATIONS).
public struct StoredPush: Sendable, Equatable {
    public var seq: Int64
    public var kind: PushKind
    public var at: Date
    public var data: JSONObject

    public init(seq: Int64, kind: PushKind, at: Date, data: JSONObject) {
        self.seq = seq
        self.kind = kind
        self.at = at
        self.data = data
    }
}

/// A user's subscription now, by the database clock (rules.md, Subscriptions).
public struct SubscriptionState: Sendable, Equatable {
    public enum Status: String, Sendable {
        case free, trial, active, lapsed
    }

    public var status: Status
    /// When the running trial or grant ends; nil without end or without premium.
    public var endsAt: Date?
    public var trialUsed: Bool

    public init(status: Status, endsAt: Date?, trialUsed: Bool) {
        self.status = status
        self.endsAt = endsAt
        self.trialUsed = trialUsed
    }

    public var isPremium: Bool { status == .trial || status == .active }
    public var tier: String { isPremium ? "premium" : "free" }
}
