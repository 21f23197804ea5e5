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
    /// The catalog's achievements alone: what every user without templates is measured against, made once and
    /// shared (a session holds it for each connected user).
    let catalogAchievements: UserAchievements
    /// The user's state as this instance last saved it, if the engine is bound to a session.
    var cache: EngineStateCache?

    init(catalog: Catalog) {
        self.catalog = catalog
        self.catalogAchievements = UserAchievements(catalog: catalog, templates: [], activities: [])
    }

    /// The same engine, keeping the user's state in `cache` between evaluations.
    func caching(in cache: EngineStateCache) -> ProgressEngine {
        var engine = self
        engine.cache = cache
        return engine
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
        /// Nothing new, but the current day's and week's challenges are needed (CHALLENGES): they are chosen now
        /// if nobody needed them before.
        case challengesNeeded

        var removesFacts: Bool {
            if case .factsRemoved = self { return true }
            return false
        }

        /// The local days of the new fact: its periods' challenges may be completed by it, and those of them that are
        /// current are chosen for it if nobody needed them before (a backfill into an earlier week chooses nothing).
        func factDays(today: LocalDay) -> Set<LocalDay> {
            switch self {
            case .newLog(let log): [log.day]
            case .newLesson(let lesson): [lesson.day]
            case .newEvent, .challengesNeeded: [today]
            case .factsRemoved, .settingsChanged, .catchUp: []
            }
        }

        /// The id of the new log, when the change is one.
        var newLogID: String? {
            if case .newLog(let log) = self { return log.id }
            return nil
        }
    }

    /// Evaluates `change` inside a writing unit of work and stores what follows (unlocks, pushes, figures and
    /// the engine state).
    func evaluate(_ change: Change, in records: any UserRecords, now: Date) throws -> Evaluation {
        let context = try EvaluationContext(records: records, now: now, engine: self)
        let progress = try records.progress()
        // The unit of work moved the version on when it took the lock; the state to start from is the previous.
        let version = try records.stateVersion()
        // A new log is stored before the engine runs: it is the change, not part of the state before it.
        let saved = try savedState(at: version - 1, progress, context: context, records: records, leavingOut: change.newLogID)
        let accumulator = try currentAccumulator(saved: saved, change: change, context: context, records: records)
        let challenges = try ChallengeCompletions(
            days: change.factDays(today: context.today), today: context.today,
            localHour: LocalDateTime(of: now, in: context.zone).hour,
            currentStreak: accumulator.streak(today: context.today, settings: context.history).current(before: context.today),
            catalog: catalog,
            records: records, now: now)
        let decision = ProgressDecision.decide(
            accumulator: accumulator, shownStreak: progress.shownStreak ?? saved?.streak ?? StreakState(), context: context,
            alreadyUnlocked: Set(try records.unlocks().keys), highestLevelReached: progress.maxLevel,
            challengeXP: challenges.totalXP, challengePushes: challenges.pushes, removesFacts: change.removesFacts,
            lastLogSeq: try records.lastLogSeq(), now: now)

        for unlock in decision.unlocks where !(try records.insertUnlock(achievementID: unlock.id, at: now)) {
            throw StoreError.failed("achievement \(unlock.id) was unlocked under the user's lock by someone else")
        }
        let pushes = try decision.pushes.map(records.appendPush)
        if let last = pushes.last { try records.announcePushes(through: last.seq) }
        var figures = decision.figures
        figures.state = try decision.state.encoded()
        try records.saveProgress(figures)
        cache?.keep(decision.state, version: version)
        return decision.evaluation(pushes: pushes)
    }

    /// The user's figures now, for reading requests (nothing is stored).
    func snapshot(in records: any UserRecords, now: Date) throws -> ProgressSnapshot {
        let context = try EvaluationContext(records: records, now: now, engine: self)
        let progress = try records.progress()
        let accumulator: ProgressAccumulator
        if let saved = try savedState(at: try records.stateVersion(), progress, context: context, records: records),
           saved.accumulator.speedWindows == context.speedWindows {
            accumulator = saved.accumulator
        } else {
            accumulator = try rebuilt(records: records, context: context)
        }
        return ProgressSnapshot(
            achievements: context.achievements, measures: accumulator.measures, streak: accumulator.streak(today: context.today, settings: context.history),
            unlocks: try records.unlocks(), xp: progress.xp, level: progress.level, highestLevel: progress.maxLevel)
    }

    /// The engine state at the user's state `version`, from the newest state at hand that is not newer: the one
    /// this session holds, or the stored one. An older one is brought up to `version` by adding the live logs
    /// stored after it, which is all that can have changed since (every writer but a LOG stores the state); nil
    /// when there is none, or when a log to add needs its neighbours (a speed window): rebuild from the facts.
    /// - Parameter leavingOut: the id of a log stored by the unit of work that asks (not part of `version`).
    func savedState(
        at version: Int64, _ progress: StoredProgress, context: EvaluationContext, records: any UserRecords, leavingOut: String? = nil
    ) throws -> EngineState? {
        var candidates: [(version: Int64, state: EngineState)] = []
        if let kept = cache?.newestState, kept.version <= version { candidates.append(kept) }
        if progress.stateVersion >= 0, progress.stateVersion <= version, candidates.first.map({ $0.version < progress.stateVersion }) ?? true,
           let stored = EngineState.decode(try records.progressState()) {
            candidates.append((progress.stateVersion, stored))
        }
        guard let newest = candidates.max(by: { $0.version < $1.version }) else { return nil }
        var state = newest.state
        guard newest.version < version else { return state }
        for (seq, log) in try records.liveLogs(afterSeq: state.lastLogSeq) where log.id != leavingOut {
            guard !state.accumulator.speedWindows.contains(where: { $0.activity == log.activity }) else { return nil }
            state.accumulator.record(log, neighbours: [], settings: context.history)
            state.lastLogSeq = max(state.lastLogSeq, seq)
        }
        return state
    }

    func currentAccumulator(
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
        case .factsRemoved, .settingsChanged, .catchUp, .challengesNeeded:
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

    init(records: any UserRecords, now: Date, engine: ProgressEngine) throws {
        zone = try records.timeZone()
        today = LocalDay(of: now, in: zone)
        history = try records.streakSettingsHistory()
        let templates = try records.templates()
        achievements = templates.isEmpty
            ? engine.catalogAchievements
            : UserAchievements(catalog: engine.catalog, templates: templates, activities: try records.customActivities(includeDeleted: true))
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

    /// The unlocks worth XP, which PROFILE counts as `unlocked`: those of achievements listed for the user, so it
    /// agrees with ACHIEVEMENTS' `summary.unlocked` when hidden ones are included.
    var unlocksWorthXP: Set<String> { achievements.unlocksWorthXP(unlocks.keys) }
}
