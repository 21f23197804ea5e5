import Foundation
import LaurelCore
import LaurelStore

/// Everything the engine reads about one user, held by the user's session so that a LOG is evaluated without
/// reading anything: the zone, settings history and achievements, the custom activities, the unlocks, the
/// figures and the running state, all as of the user's state `version`. A LOG evaluated against it is stored
/// only if the version is still the user's (`LogCommit`); any other writer moves the version on, and the
/// session then loads this afresh.
struct SessionProgress: Sendable {
    var version: Int64
    /// The version of the engine state in the store (it is not written with every LOG).
    var savedVersion: Int64
    /// How many versions a session lets its stored state fall behind before storing it again.
    static let checkpointInterval: Int64 = 1000
    var context: EvaluationContext
    var settings: UserSettings
    var subscription: SubscriptionState
    /// The last push seq the session knows of; a push stored beyond it by someone else makes this stale.
    var lastSeq: Int64
    /// The user's custom activities, deleted ones included.
    var customActivities: [Activity]
    var unlocks: [String: Date]
    var state: EngineState
    var xp: Int
    var level: Int
    var highestLevel: Int
    /// Today's and this week's challenges with the week's facts, when they have been chosen.
    var challengeBoard: ChallengeBoard?
    /// The XP of every challenge the user completed.
    var challengeXP: Int

    /// Reads it in one snapshot; the engine state comes from memory or the store when it is at the user's
    /// version, else it is rebuilt from the facts.
    init(records: any UserRecords, engine: ProgressEngine, now: Date) throws {
        version = try records.stateVersion()
        context = try EvaluationContext(records: records, now: now, engine: engine)
        settings = try records.currentSettings()
        subscription = try records.subscription()
        lastSeq = try records.lastPushSeq()
        customActivities = try records.customActivities(includeDeleted: true)
        unlocks = try records.unlocks()
        let progress = try records.progress()
        savedVersion = progress.stateVersion
        let saved = try engine.savedState(at: version, progress, context: context, records: records)
        let accumulator = try engine.currentAccumulator(saved: saved, change: .catchUp, context: context, records: records)
        state = EngineState(
            accumulator: accumulator, streak: progress.shownStreak ?? saved?.streak ?? StreakState(), lastLogSeq: try records.lastLogSeq())
        xp = progress.xp
        level = progress.level
        highestLevel = progress.maxLevel
        challengeBoard = try ChallengeBoard.load(day: context.today, pool: engine.catalog.challengePool, records: records)
        challengeXP = try records.challengeXP()
    }

    /// A custom activity by id or name, deleted ones included.
    func customActivity(_ idOrName: String) -> Activity? {
        let key = idOrName.lowercased()
        return customActivities.first { $0.id == idOrName } ?? customActivities.first { $0.name.lowercased() == key }
    }

    /// A built-in or a live custom activity by id or name (names case-insensitive); deleted ones are not found.
    func liveActivity(_ idOrName: String, catalog: Catalog) -> Activity? {
        if let builtin = catalog.builtinActivity(named: idOrName) { return builtin }
        guard let custom = customActivity(idOrName), !custom.deleted else { return nil }
        return custom
    }

    /// Whether a new log of `activity` can be evaluated from memory: a speed window of the activity needs the
    /// log's neighbours, which only the store has.
    func canRecordLog(of activity: String) -> Bool {
        !context.speedWindows.contains { $0.activity == activity }
    }

    /// Whether `log` can be evaluated and stored from memory as far as challenges go: the session holds the
    /// challenges of the log's day (chosen, see `RequestContext.sessionProgressWithChallenges`), and that day is
    /// today. The challenges the log completes are then completed by its commit. A backfill may complete a past
    /// period's challenges, which the session does not hold, so it takes the transactional path; a catalog without
    /// challenges needs none of this.
    func challengesAllowRecording(_ log: LoggedFact, now: Date, pool: [ChallengePoolEntry]) -> Bool {
        guard !pool.isEmpty else { return true }
        guard let board = challengeBoard, board.unchosen.isEmpty else { return false }
        return board.day == log.day && board.day == LocalDay(of: now, in: context.zone)
    }

    /// Whether the session needs today's challenges chosen on its board before it evaluates a fact of today.
    func needsChallengeBoard(today: LocalDay, pool: [ChallengePoolEntry]) -> Bool {
        guard !pool.isEmpty else { return false }
        guard let board = challengeBoard, board.day == today else { return true }
        return !board.unchosen.isEmpty
    }

    /// The streak as the user last saw it (a STREAK push tells what changed since).
    var shownStreak: StreakState { state.streak }

    /// What a new log changes, decided against this state (nothing is stored or changed here).
    func decide(recording log: LoggedFact, now: Date) -> ProgressDecision {
        var accumulator = state.accumulator
        accumulator.record(log, neighbours: [], settings: context.history)
        let completed = challengeBoard?.completed(adding: log) ?? []
        let pushes = completed.map { choice in
            PushDraft(kind: .challenge, data: ChallengeRendering.object(StoredChallenge(choice: choice, completedAt: now), progress: choice.target))
        }
        var decision = decision(
            for: accumulator, challengeXP: challengeXP + completed.reduce(0) { $0 + $1.xp }, challengePushes: pushes, now: now)
        decision.challengesCompleted = completed
        return decision
    }

    /// Whether evaluating with nothing new would change anything: an achievement met now (a catalog addition), a
    /// level, the figures, or a streak the user has not seen (the days that passed since).
    func changesOnCatchUp(now: Date) -> Bool {
        let decision = decision(for: state.accumulator, now: now)
        let (before, after) = (shownStreak, decision.streak)
        return !decision.pushes.isEmpty || !decision.unlocks.isEmpty || decision.xp != xp || decision.level != level
            || decision.highestLevel != highestLevel || before.current != after.current || before.longest != after.longest
            || before.freezes != after.freezes || before.lastActiveDay != after.lastActiveDay
    }

    private func decision(
        for accumulator: ProgressAccumulator, challengeXP: Int? = nil, challengePushes: [PushDraft] = [], now: Date
    ) -> ProgressDecision {
        ProgressDecision.decide(
            accumulator: accumulator, shownStreak: shownStreak, context: context, alreadyUnlocked: Set(unlocks.keys),
            highestLevelReached: highestLevel, challengeXP: challengeXP ?? self.challengeXP, challengePushes: challengePushes,
            removesFacts: false, lastLogSeq: state.lastLogSeq, now: now)
    }

    /// The figures now, for PROFILE and ACHIEVEMENTS (the streak as of today).
    func snapshot(now: Date) -> ProgressSnapshot {
        let today = LocalDay(of: now, in: context.zone)
        return ProgressSnapshot(
            achievements: context.achievements, measures: state.accumulator.measures,
            streak: state.accumulator.streak(today: today, settings: context.history), unlocks: unlocks, xp: xp, level: level,
            highestLevel: highestLevel)
    }

    /// This progress brought up to the user's version by LOG commits stored elsewhere (nothing else changed since):
    /// their logs added to the engine state, the unlocks, challenge completions, figures and last push seq taken as
    /// they are now. Nil when
    /// a log needs its neighbours (a speed window), which only a full load gives.
    func caughtUp(with changes: LogsSince) -> SessionProgress? {
        var progress = self
        for log in changes.logs where log.seq > progress.state.lastLogSeq {
            guard canRecordLog(of: log.fact.activity) else { return nil }
            progress.state.accumulator.record(log.fact, neighbours: [], settings: context.history)
            progress.challengeBoard?.record(log.fact)
            progress.state.lastLogSeq = log.seq
        }
        progress.challengeBoard?.takeStored(changes.challenges)
        progress.challengeXP = changes.challengeXP
        progress.version = changes.version
        progress.lastSeq = max(progress.lastSeq, changes.lastSeq)
        progress.unlocks = changes.unlocks
        progress.xp = changes.figures.xp
        progress.level = changes.figures.level
        progress.highestLevel = changes.figures.maxLevel
        if let shown = changes.figures.shownStreak { progress.state.streak = shown }
        return progress
    }

    /// Takes on a decision once it is stored, at the user's new `version`, with the stored log's number and pushes.
    mutating func apply(_ decision: ProgressDecision, recording log: LoggedFact, version: Int64, logSeq: Int64, pushes: [StoredPush], now: Date) {
        challengeBoard?.record(log)
        challengeBoard?.complete(Dictionary(uniqueKeysWithValues: decision.challengesCompleted.map { ($0.id, now) }))
        challengeXP += decision.challengesCompleted.reduce(0) { $0 + $1.xp }
        self.version = version
        lastSeq = max(lastSeq, pushes.map(\.seq).max() ?? lastSeq)
        state = decision.state
        state.lastLogSeq = max(state.lastLogSeq, logSeq)
        for unlock in decision.unlocks { unlocks[unlock.id] = now }
        xp = decision.xp
        level = decision.level
        highestLevel = decision.highestLevel
    }
}
