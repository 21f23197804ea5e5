import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// The achievement engine, run inside a user's write transaction: it brings the user's running state up to date
/// with what just changed, unlocks what is now met (each unlock unique in the database), stores the pushes that
/// tell about it, and saves the figures. The common case, a new log, updates the state in place; a deleted log,
/// or a settings change reaching back before the last active day, recomputes it from the stored facts.
struct ProgressEngine: Sendable {
    let catalog: Catalog
    /// The user's state as this instance last saved it, if the engine is bound to a session.
    var cache: EngineStateCache?

    /// The same engine, keeping the user's state in `cache` between evaluations.
    func caching(in cache: EngineStateCache) -> ProgressEngine {
        ProgressEngine(catalog: catalog, cache: cache)
    }

    /// What happened since the last evaluation. The new fact is already stored when the engine runs.
    enum Change: Sendable {
        case newLog(LoggedFact)
        case newLesson(LessonCompletion)
        case newEvent(ReportedEvent)
        case factsRemoved
        case settingsChanged(effective: LocalDay)
        /// Nothing new: catches up with catalog changes and the passing of days (run at AUTH).
        case catchUp

        var removesFacts: Bool {
            if case .factsRemoved = self { return true }
            return false
        }
    }

    func evaluate(_ change: Change, in records: any UserRecords, now: Date) throws -> Evaluation {
        let context = try EvaluationContext(records: records, now: now, catalog: catalog)
        let progress = try records.progress()
        let saved = try savedState(progress, records: records)
        let accumulator = try currentAccumulator(saved: saved, change: change, context: context, records: records)
        let definitions = context.achievements.evaluated
        let entries = Dictionary(context.achievements.entries.map { ($0.definition.id, $0) }, uniquingKeysWith: { first, _ in first })

        let streak = accumulator.streak(today: context.today, settings: context.history)
        let unlocks = try records.unlocks()
        let outcome = AchievementEvaluator.evaluate(
            definitions: definitions, measures: accumulator.measures, alreadyUnlocked: Set(unlocks.keys),
            highestLevelReached: progress.maxLevel)

        var unlocked: [JSONObject] = []
        var pushes: [StoredPush] = []
        for definition in outcome.newlyUnlocked where try records.insertUnlock(achievementID: definition.id, at: now) {
            guard let entry = entries[definition.id] else { continue }
            let view = AchievementView(entry: entry, measures: accumulator.measures, level: outcome.highestLevel, unlockedAt: now)
            unlocked.append(view.json)
            pushes.append(try records.appendPush(kind: "UNLOCK", data: view.json))
        }
        if outcome.reachedNewLevel {
            pushes.append(try records.appendPush(kind: "LEVEL", data: ["level": .int(outcome.level), "xp": .int(outcome.xp)]))
        }
        // A deleted log can shorten the streak, but that is a correction, not news (no `broken` for it).
        if !change.removesFacts, let event = StreakEvent.worthShowing(before: saved?.streak ?? StreakState(), after: streak) {
            pushes.append(try records.appendPush(kind: "STREAK", data: ["event": .string(event.rawValue), "streak": StreakRendering.json(streak)]))
        }
        if let last = pushes.last { try records.announcePushes(through: last.seq) }

        let state = EngineState(accumulator: accumulator, streak: streak)
        let version = try records.saveProgress(StoredProgress(
            xp: outcome.xp, level: outcome.level, maxLevel: outcome.highestLevel, currentStreak: streak.current,
            longestStreak: streak.longest, state: try state.encoded()))
        cache?.keep(state, version: version)
        return Evaluation(unlocked: unlocked, xp: outcome.xp, level: outcome.level, streak: streak, pushes: pushes)
    }

    /// The user's figures now, for reading requests (nothing is stored).
    func snapshot(in records: any UserRecords, now: Date) throws -> ProgressSnapshot {
        let context = try EvaluationContext(records: records, now: now, catalog: catalog)
        let progress = try records.progress()
        let accumulator: ProgressAccumulator
        if let saved = try savedState(progress, records: records), saved.accumulator.speedWindows == context.speedWindows {
            accumulator = saved.accumulator
        } else {
            accumulator = try rebuilt(records: records, context: context)
        }
        return ProgressSnapshot(
            achievements: context.achievements, measures: accumulator.measures, streak: accumulator.streak(today: context.today, settings: context.history),
            unlocks: try records.unlocks(), xp: progress.xp, level: progress.level, highestLevel: progress.maxLevel)
    }

    /// The state saved with `progress`: from memory when this instance saved that version, else from the store.
    private func savedState(_ progress: StoredProgress, records: any UserRecords) throws -> EngineState? {
        if let kept = cache?.state(ifVersion: progress.stateVersion) { return kept }
        return EngineState.decode(try records.progressState())
    }

    private func currentAccumulator(
        saved: EngineState?, change: Change, context: EvaluationContext, records: any UserRecords
    ) throws -> ProgressAccumulator {
        guard var accumulator = saved?.accumulator,
              // A window no active achievement needs any more stops getting its neighbours, so it would go stale;
              // dropping it means starting over (rare: a template switched off or deleted).
              accumulator.speedWindows.isSubset(of: context.speedWindows)
        else { return try rebuilt(records: records, context: context) }
        switch change {
        case .factsRemoved:
            return try rebuilt(records: records, context: context)
        case .settingsChanged(let effective) where !accumulator.acceptsSettingsChange(effective: effective):
            return try rebuilt(records: records, context: context)
        default:
            break
        }
        for window in context.speedWindows where !accumulator.speedWindows.contains(window) {
            accumulator.track(window, logs: try records.logFacts(activity: window.activity, from: .distantPast, through: .distantFuture))
        }
        switch change {
        case .newLog(let log):
            accumulator.record(log, neighbours: try neighbours(of: log, windows: context.speedWindows, records: records), settings: context.history)
        case .newLesson(let lesson):
            accumulator.record(lesson, settings: context.history)
        case .newEvent(let event):
            accumulator.record(event)
        case .factsRemoved, .settingsChanged, .catchUp:
            break
        }
        return accumulator
    }

    /// The live logs of the log's activity close enough to matter for its speed windows.
    private func neighbours(of log: LoggedFact, windows: Set<SpeedWindow>, records: any UserRecords) throws -> [LoggedFact] {
        guard let widest = windows.filter({ $0.activity == log.activity }).map(\.minutes).max() else { return [] }
        let reach = TimeInterval(widest * 60)
        return try records.logFacts(activity: log.activity, from: log.at.addingTimeInterval(-reach), through: log.at.addingTimeInterval(reach))
    }

    private func rebuilt(records: any UserRecords, context: EvaluationContext) throws -> ProgressAccumulator {
        ProgressAccumulator(rebuildingFrom: try records.allFacts(), settings: context.history, speedWindows: context.speedWindows)
    }
}

/// The user's zone, today, settings history and achievements, read once per evaluation.
struct EvaluationContext {
    let zone: TimeZone
    let today: LocalDay
    let history: StreakSettingsHistory
    let achievements: UserAchievements
    /// The speed windows the evaluated achievements need tracked.
    let speedWindows: Set<SpeedWindow>

    init(records: any UserRecords, now: Date, catalog: Catalog) throws {
        zone = try records.timeZone()
        today = LocalDay(of: now, in: zone)
        history = try records.streakSettingsHistory()
        achievements = try UserAchievements(catalog: catalog, records: records)
        speedWindows = SpeedWindow.required(by: achievements.evaluated)
    }
}

/// The user's figures at one moment, for ACHIEVEMENTS, ACHIEVEMENT and PROFILE.
struct ProgressSnapshot: Sendable {
    var achievements: UserAchievements
    var measures: ProgressMeasures
    var streak: StreakState
    var unlocks: [String: Date]
    var xp: Int
    var level: Int
    var highestLevel: Int
}
