import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// One user's records in memory, with the semantics of the PostgreSQL store that the engine relies on: the
/// state version a writing unit of work moves on, logs numbered in insertion order, soft deletion, unique
/// unlocks, pushes in one sequence, a stored engine state kept with the version it belongs to. For engine and
/// handler tests where a database adds nothing; the integration tests run the same engine against PostgreSQL.
final class InMemoryUserRecords: UserRecords, @unchecked Sendable {
    let user = UserID(1)
    /// The clock the records use where the database would use `now()`.
    var now: Date

    private var settings: [(effective: LocalDay, settings: UserSettings)]
    private var activities: [Activity] = []
    private(set) var storedLogs: [(seq: Int64, log: StoredLog)] = []
    private(set) var lessons: [StoredLesson] = []
    private var events: [StoredEvent] = []
    private var userTemplates: [AchievementTemplate] = []
    private var storedUnlocks: [String: Date] = [:]
    private var storedPushes: [StoredPush] = []
    private var figures = StoredProgress(stateVersion: -1)
    private var state: String?
    private var version: Int64 = 0
    /// Challenges by period and start day, in slot order.
    var storedChallenges: [String: [StoredChallenge]] = [:]

    init(timeZone: String = "UTC", now: Date) {
        self.now = now
        let zone = TimeZone(identifier: timeZone) ?? .gmt
        settings = [(LocalDay(of: now, in: zone), UserSettings(timeZone: timeZone))]
    }

    /// Starts a writing unit of work: like the store's row lock, it moves the state version on.
    func beginWrite() {
        version += 1
    }

    // MARK: settings

    func currentSettings() throws -> UserSettings { settings.last!.settings }

    func appendSettings(_ new: UserSettings) throws {
        settings.append((LocalDay(of: now, in: TimeZone(identifier: new.timeZone) ?? .gmt), new))
    }

    func streakSettingsHistory() throws -> StreakSettingsHistory {
        var history = StreakSettingsHistory()
        for (day, value) in settings {
            history.setRestDay(value.restDay, from: day)
            history.setVacation(value.vacation, from: day)
        }
        return history
    }

    // MARK: activities

    func customActivities(includeDeleted: Bool) throws -> [Activity] { activities.filter { includeDeleted || !$0.deleted } }
    func customActivity(id: String) throws -> Activity? { activities.first { $0.id == id } }
    func customActivity(named name: String) throws -> Activity? { activities.first { $0.name.lowercased() == name.lowercased() } }
    func customActivityCount() throws -> Int { activities.filter { !$0.deleted }.count }

    func insertCustomActivity(name: String, unit: ActivityUnit, icon: String?) throws -> Activity {
        let activity = Activity(id: UUID().uuidString.lowercased(), name: name, unit: unit, icon: icon, custom: true)
        activities.append(activity)
        return activity
    }

    func setCustomActivityDeleted(id: String, deleted: Bool) throws -> Activity {
        guard let index = activities.firstIndex(where: { $0.id == id }) else { throw StoreError.failed("no activity \(id)") }
        activities[index].deleted = deleted
        return activities[index]
    }

    // MARK: facts

    func log(id: String) throws -> StoredLog? { storedLogs.first { $0.log.id == id }?.log }

    func insertLog(_ log: StoredLog) throws {
        guard try self.log(id: log.id) == nil else { throw StoreError.failed("duplicate log id \(log.id)") }
        storedLogs.append(((storedLogs.last?.seq ?? 0) + 1, log))
    }

    /// The engine tests do not limit the rate.
    func spendLogAllowance(_ limits: UserLimits) throws -> Bool { true }

    func setLogResponse(id: String, response: JSONValue) throws {
        if let index = storedLogs.firstIndex(where: { $0.log.id == id }) { storedLogs[index].log.response = response }
    }

    func markLogDeleted(id: String) throws {
        if let index = storedLogs.firstIndex(where: { $0.log.id == id }) { storedLogs[index].log.deleted = true }
    }

    func logs(_ query: LogQuery) throws -> [StoredLog] {
        let live = storedLogs.filter { entry in
            !entry.log.deleted && query.activityID.map { $0 == entry.log.activityID } ?? true
                && query.fromDay.map { entry.log.day >= $0 } ?? true && query.toDay.map { entry.log.day <= $0 } ?? true
        }
        return Array(live.sorted { ($0.log.at, $0.seq) > ($1.log.at, $1.seq) }.map(\.log).prefix(query.limit))
    }

    func logFacts(activity: String, from: Date, through: Date) throws -> [LoggedFact] {
        liveFacts().filter { $0.fact.activity == activity && $0.fact.at >= from && $0.fact.at <= through }.map(\.fact)
    }

    func allFacts() throws -> ProgressFacts {
        ProgressFacts(
            logs: liveFacts().map(\.fact),
            lessons: lessons.map { LessonCompletion(lesson: $0.lessonID, category: $0.category, day: $0.day) },
            events: events.map { ReportedEvent(name: $0.name, at: $0.at) })
    }

    func liveLogs(afterSeq seq: Int64) throws -> [(seq: Int64, fact: LoggedFact)] {
        liveFacts().filter { $0.seq > seq }
    }

    func lastLogSeq() throws -> Int64 { liveFacts().last?.seq ?? 0 }

    private func liveFacts() -> [(seq: Int64, fact: LoggedFact)] {
        storedLogs.filter { !$0.log.deleted }.map { entry in
            let log = entry.log
            return (entry.seq, LoggedFact(id: log.id, activity: log.activityID, amount: log.amount, at: log.at, day: log.day, localHour: log.localHour ?? 12))
        }
    }

    func lessonCompletion(id: String) throws -> StoredLesson? { lessons.first { $0.id == id } }
    func insertLessonCompletion(_ lesson: StoredLesson) throws { lessons.append(lesson) }

    func setLessonResponse(id: String, response: JSONValue) throws {
        if let index = lessons.firstIndex(where: { $0.id == id }) { lessons[index].response = response }
    }

    func reportedEvent(id: String) throws -> StoredEvent? { events.first { $0.id == id } }
    func insertReportedEvent(_ event: StoredEvent) throws { events.append(event) }

    func setReportedEventResponse(id: String, response: JSONValue) throws {
        if let index = events.firstIndex(where: { $0.id == id }) { events[index].response = response }
    }

    // MARK: templates

    func templates() throws -> [AchievementTemplate] { userTemplates }
    func template(id: String) throws -> AchievementTemplate? { userTemplates.first { $0.id == id } }

    func insertTemplate(name: String, activityID: String, type: TemplateType, tiers: [TemplateTier]) throws -> AchievementTemplate {
        let template = AchievementTemplate(
            id: UUID().uuidString.lowercased(), name: name, activityID: activityID, type: type, tiers: tiers, createdAt: now, updatedAt: now)
        userTemplates.append(template)
        return template
    }

    func updateTemplate(_ template: AchievementTemplate) throws -> AchievementTemplate {
        guard let index = userTemplates.firstIndex(where: { $0.id == template.id }) else { throw StoreError.failed("no template") }
        userTemplates[index] = template
        return template
    }

    func deleteTemplate(id: String) throws { userTemplates.removeAll { $0.id == id } }

    func setTemplatesActive(_ active: Bool, activityID: String, reason: String) throws -> Int {
        var changed = 0
        for index in userTemplates.indices where userTemplates[index].activityID == activityID {
            let template = userTemplates[index]
            guard active ? (!template.active && template.inactiveReason == reason) : template.active else { continue }
            userTemplates[index].active = active
            userTemplates[index].inactiveReason = active ? nil : reason
            changed += 1
        }
        return changed
    }

    // MARK: progress and unlocks

    func unlocks() throws -> [String: Date] { storedUnlocks }

    func insertUnlock(achievementID: String, at: Date) throws -> Bool {
        guard storedUnlocks[achievementID] == nil else { return false }
        storedUnlocks[achievementID] = at
        return true
    }

    func deleteUnlocks(withPrefix prefix: String) throws -> Int {
        let doomed = storedUnlocks.keys.filter { $0.hasPrefix(prefix) }
        doomed.forEach { storedUnlocks[$0] = nil }
        return doomed.count
    }

    func stateVersion() throws -> Int64 { version }
    func progress() throws -> StoredProgress { figures }
    func progressState() throws -> String? { state }

    func saveProgress(_ progress: StoredProgress) throws {
        var saved = progress
        saved.state = nil
        saved.shownStreak = progress.shownStreak ?? figures.shownStreak
        saved.stateVersion = progress.state == nil ? figures.stateVersion : version
        if let text = progress.state { state = text }
        figures = saved
    }

    // MARK: pushes

    func appendPush(_ push: PushDraft) throws -> StoredPush {
        let stored = push.stored(seq: (storedPushes.last?.seq ?? 0) + 1, at: now)
        storedPushes.append(stored)
        return stored
    }

    func pushes(after seq: Int64, limit: Int) throws -> [StoredPush] { Array(storedPushes.filter { $0.seq > seq }.prefix(limit)) }
    func lastPushSeq() throws -> Int64 { storedPushes.last?.seq ?? 0 }
    func announcePushes(through seq: Int64) throws {}

    // MARK: subscription and account

    func subscription() throws -> SubscriptionState { SubscriptionState(status: .free, endsAt: nil, trialUsed: false) }
    func subscriptionDocument() throws -> JSONObject { ["tier": "free", "status": "free"] }
    func startTrial() throws -> StoredPush? { nil }
    func accountDocument() throws -> JSONValue { ["logs": .int(storedLogs.count)] }
    func deleteAccount() throws {}
}
