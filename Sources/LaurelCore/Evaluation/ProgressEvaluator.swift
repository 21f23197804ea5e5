import Foundation

/// The one evaluator of the rules: every change of a user's stored state — a fact reported, a log deleted,
/// settings, activities, templates, challenges chosen, the passing of days — is decided here, from the user's
/// ``UserProgress`` and nothing else, into the progress after it and what to store and push. It reads nothing:
/// what the progress lacks it asks for (``Evaluation/needs(_:)``), and the caller evaluates again once it is read.
public struct ProgressEvaluator: Sendable {
    public let rules: Rulebook
    public let user: UserID
    /// Makes the ids of new templates, custom activities and facts sent without one.
    public let makeID: @Sendable () -> String

    public init(rules: Rulebook, user: UserID, makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }) {
        self.rules = rules
        self.user = user
        self.makeID = makeID
    }

    /// Decides `change` at `now` against `progress`, with the pieces read for it so far.
    public func evaluate(_ change: UserChange, on progress: UserProgress, with pieces: LoadedPieces = LoadedPieces(), now: Date) -> Evaluation {
        evaluate(change, on: SharedProgress(progress), with: pieces, now: now)
    }

    /// The same, on a progress held by reference (a session's): the decision starts from the one copy it changes.
    public func evaluate(_ change: UserChange, on held: SharedProgress, with pieces: LoadedPieces = LoadedPieces(), now: Date) -> Evaluation {
        // Read in place, not bound to a local: the decider's copy is the only one.
        var decider = ChangeDecider(evaluator: self, progress: held.progress, pieces: pieces, now: now, home: nil)
        return decider.evaluation(of: change)
    }

    /// The same, changing the progress `home` holds rather than a copy: every table the change touches is changed
    /// where it is. The caller holds the only reference to `home`. Decided, `home` holds the progress after the
    /// change and is the decision's ``Decision/shared``; not decided (pieces needed, or refused), it holds the
    /// progress again, with nothing changed that is not true of it anyway (ended periods forgotten, standings and
    /// speed windows held as the pieces read tell). Only a reported fact is decided in place (``decidesInPlace(_:)``).
    ///
    /// The progress goes from `home` into the decision and back with no hop between: taken out, handed on and put
    /// back through functions of their own, its 672 bytes were moved some five times more a LOG.
    public func evaluate(
        _ change: UserChange, inPlace home: inout SharedProgress, with pieces: LoadedPieces = LoadedPieces(), now: Date
    ) -> Evaluation {
        precondition(Self.decidesInPlace(change), "only a reported fact is decided in place")
        precondition(isKnownUniquelyReferenced(&home), "a progress decided in place is held by its caller alone")
        var decider = ChangeDecider(evaluator: self, progress: home.held.take().unsafelyUnwrapped, pieces: pieces, now: now, home: home)
        return decider.evaluation(of: change)
    }

    /// The same, on `progress` itself, handed back when not decided.
    public func evaluate(
        _ change: UserChange, taking progress: consuming UserProgress, with pieces: LoadedPieces = LoadedPieces(), now: Date
    ) -> (evaluation: Evaluation, handedBack: UserProgress?) {
        var home = SharedProgress(progress)
        let evaluation = evaluate(change, inPlace: &home, with: pieces, now: now)
        if case .decided = evaluation { return (evaluation, nil) }
        return (evaluation, SharedProgress.take(from: &home))
    }

    /// Whether `change` may be decided on the progress itself (``evaluate(_:inPlace:with:now:)``): a reported fact
    /// changes nothing of it until it knows it is decided. The other changes are decided on a copy.
    public static func decidesInPlace(_ change: UserChange) -> Bool {
        if case .report = change { return true }
        return false
    }
}

/// Why a change could not be decided yet, or at all.
enum Undecided: Error {
    case needs(Set<ProgressPiece>)
    case refused(Refusal)
}

/// One decision in the making: the progress as it changes, what is to be stored and pushed. The change kinds
/// live in extensions of their own (facts, deletion, settings, activities, templates, challenges); what follows
/// every change — challenges completed, achievements unlocked, figures, pushes — is ``settle(removesFacts:)``.
///
/// Its helpers are `mutating` even where they only read (and so are `events` and `earliestReachableDay`): a
/// non-mutating method of a value this large (1.4 KB), called from a mutating one, is handed a copy of the whole
/// decider, byte for byte, which five calls a LOG had made.
struct ChangeDecider {
    let evaluator: ProgressEvaluator
    var progress: UserProgress
    let pieces: LoadedPieces
    let now: Date
    /// The user's wall clock now, in the zone in force: read once a decision, and again after a zone change (each
    /// look at "today" had been a lookup in the zone's rules).
    private(set) var localNow: LocalDateTime
    var writes = ProgressWrites()
    private var unlockEvents: [ProgressEvent] = []
    private var challengeEvents: [ProgressEvent] = []
    private var otherEvents: [ProgressEvent] = []
    /// What the score changes read of the progress before the decision (taken as it goes: the progress changes in
    /// place).
    var baseline: ScoreChanges.Baseline
    /// Where the progress was taken from, to go back to (decided or not), when it is decided in place; nil for a
    /// decision on a copy.
    let home: SharedProgress?

    init(evaluator: ProgressEvaluator, progress: consuming UserProgress, pieces: LoadedPieces, now: Date, home: SharedProgress?) {
        self.evaluator = evaluator
        self.home = home
        self.baseline = ScoreChanges.Baseline(startingFrom: progress)
        self.progress = progress
        self.pieces = pieces
        self.now = now
        self.localNow = LocalDateTime(of: now, in: progress.zone)
    }

    var rules: Rulebook { evaluator.rules }
    var catalog: Catalog { evaluator.rules.catalog }
    /// The user's local day now, in the zone in force (after a zone change, the new one).
    var today: LocalDay { localNow.day }

    /// Puts `zone` in force from now on.
    mutating func changeZone(to zone: TimeZone) {
        progress.zone = zone
        localNow = LocalDateTime(of: now, in: zone)
    }
    var events: [ProgressEvent] {
        mutating get {
            // Nearly every decision has none of them, or unlocks only: no arrays joined (each join allocates).
            guard !challengeEvents.isEmpty || !otherEvents.isEmpty else { return unlockEvents }
            return unlockEvents + challengeEvents + otherEvents
        }
    }

    /// The earliest local day a fact can still be stored on: the backfill window in whole days, and a day more.
    var earliestReachableDay: LocalDay {
        mutating get { today.adding(days: -Int((rules.logTimes.backfillWindow / 86_400).rounded(.up)) - 1) }
    }

    /// The decision this decider came to. Its progress and writes are handed over, not copied (a copy would retain
    /// every table in them), the progress into `home` when it came from there, and the decider is left empty: this
    /// is the last thing asked of it.
    mutating func decision(_ outcome: ChangeOutcome) -> Decision {
        let shared = home ?? SharedProgress(exchange(&progress, with: .vacant))
        if home != nil { handProgressHome() }
        return Decision(shared: shared, writes: exchange(&writes, with: ProgressWrites()), events: events, outcome: outcome, decidedAt: now)
    }

    /// Puts the progress back into `home`, where a decision in place took it from.
    private mutating func handProgressHome() {
        home?.held = exchange(&progress, with: .vacant)
    }

    /// Decides `change`: the decision, or what it needs, or why it is refused. Not decided, a progress taken from
    /// `home` goes back there as the decider leaves it. The decider is left empty: this is the last thing asked of it.
    mutating func evaluation(of change: UserChange) -> Evaluation {
        do throws(Undecided) {
            let outcome = try decide(change)
            writes.scores = ScoreChanges(
                of: writes, outcome: outcome, after: progress, decidedAt: now, before: baseline, builtInActivities: rules.builtInActivityIDs)
            return .decided(decision(outcome))
        } catch {
            handProgressHome()
            switch error {
            case .needs(let pieces): return .needs(pieces)
            case .refused(let refusal): return .refused(refusal)
            }
        }
    }

    mutating func decide(_ change: UserChange) throws(Undecided) -> ChangeOutcome {
        // Nothing can be logged into a period that ended before the backfill window.
        progress.challenges.forget(endingBefore: earliestReachableDay)
        try holdWeekStandings()
        switch change {
        case .report(let fact): return try record(fact)
        case .deleteLog(let id): return try deleteLog(id)
        case .changeSettings(let change): return try changeSettings(change)
        case .createActivity(let draft): return try createActivity(draft)
        case .setActivityDeleted(let idOrName, let deleted): return try setActivityDeleted(idOrName, deleted: deleted)
        case .createTemplates(let draft): return try createTemplates(draft)
        case .updateTemplate(let change): return try updateTemplate(change)
        case .deleteTemplate(let id): return try deleteTemplate(id)
        case .importTemplates(let entries): return try importTemplates(entries)
        case .chooseChallenges: return try chooseChallenges()
        case .catchUp:
            try trackSpeedWindows()
            settle(removesFacts: false)
            return .none
        }
    }

    // MARK: what follows every change

    /// Completes the challenges now reached, unlocks what is now met, and brings the figures and the streak up to
    /// date, with the pushes that tell about it.
    /// - Parameter removesFacts: the change deleted facts: a shorter streak is then a correction, not news.
    mutating func settle(removesFacts: Bool) {
        // A new month lists a monthly template's new tiers.
        if progress.templates.contains(where: { $0.type == .monthly }), progress.achievements.month != today.monthKey {
            progress.achievements = rules.achievements(
                templates: progress.templates, activities: progress.customActivities, unlocks: progress.unlocks, today: today)
        }
        completeReachedChallenges()
        let before = progress.figures
        let streak = progress.accumulator.streak(today: today, settings: progress.settingsHistory)
        let weekly = progress.accumulator.weeklyGoalStreak(today: today, settings: progress.settingsHistory)
        let measures = progress.liveMeasures(at: now, longestWeeklyStreak: weekly.longest)
        var unlocked = progress.unlockState()
        var outcome = progress.achievements.evaluate(
            measures: measures, unlocked: unlocked, challengeXP: before.challengeXP, highestLevelReached: before.highestLevel)
        var newlyUnlocked = outcome.newlyUnlocked.count
        while true {
            for definition in outcome.newlyUnlocked {
                progress.unlocks[definition.id] = now
                writes.unlocks.append(definition.id)
                unlockEvents.append(.unlocked(definition.id))
            }
            // A progressive template's next target exists once the one before it is unlocked: evaluate it too.
            guard !outcome.newlyUnlocked.isEmpty, progress.templates.contains(where: { $0.type == .progressive }) else { break }
            let listed = progress.achievements.entries.count
            progress.achievements = rules.achievements(
                templates: progress.templates, activities: progress.customActivities, unlocks: progress.unlocks, today: today)
            guard progress.achievements.entries.count > listed else { break }
            unlocked = progress.unlockState()
            let highest = outcome.highestLevel
            outcome = progress.achievements.evaluate(
                measures: measures, unlocked: unlocked, challengeXP: before.challengeXP, highestLevelReached: highest)
            newlyUnlocked = outcome.newlyUnlocked.count
        }
        if outcome.highestLevel > before.highestLevel { otherEvents.append(.levelReached(level: outcome.level, xp: outcome.xp)) }
        if !removesFacts, let kind = StreakEvent.worthShowing(before: before.shownStreak, after: streak) {
            otherEvents.append(.streak(kind, streak))
        }
        // Once a week: a week met, unmet by a deletion and met again tells nothing new.
        if weekly.met, before.goalMetWeek.map({ $0 < weekly.week }) ?? true {
            otherEvents.append(.weeklyGoalMet(weekly))
        }
        var figures = before
        figures.xp = outcome.xp
        figures.level = outcome.level
        figures.highestLevel = outcome.highestLevel
        figures.shownStreak = streak
        figures.streakHoldsThrough = progress.accumulator.streakHoldsThrough(settings: progress.settingsHistory)
        // What was just unlocked is listed, so worth XP too.
        figures.unlocked = unlocked.worthXP + newlyUnlocked
        figures.totalLogs = progress.accumulator.totalLogs
        figures.activeDays = progress.accumulator.activeDays.count
        if weekly.met, before.goalMetWeek.map({ $0 < weekly.week }) ?? true { figures.goalMetWeek = weekly.week }
        progress.figures = figures
        // Whether today is at risk changes with the day alone; it is worth no write of its own.
        var unchanged = figures
        unchanged.shownStreak.atRisk = before.shownStreak.atRisk
        if unchanged != before || !writes.isEmpty { writes.figures = figures }
    }

    /// Marks completed, at the moment of the decision, every challenge at hand that its period's facts now reach
    /// (chosen ones included: a challenge chosen after the facts that reach it is completed at once).
    private mutating func completeReachedChallenges() {
        // A challenge's progress is counted from the facts of its period's days, so a new fact can reach the
        // challenges of its own periods only (and of the current ones, which a choice made with it may fill); any
        // other change looks at every period held. A session that read the backfill window's periods holds a month
        // of them, which a LOG of today need not count.
        let factDay = writes.fact?.day, today = today
        let reachable = { (period: ChallengeBook.Period) in
            factDay.map { period.days.contains($0) || period.days.contains(today) } ?? true
        }
        guard progress.challenges.containsOpen(in: reachable, where: { ChallengeProgress.isReached(at: $0, in: progress.accumulator) }) else { return }
        for choice in progress.challenges.open(in: reachable) where ChallengeProgress.isReached(choice, in: progress.accumulator) {
            progress.challenges.complete(choice, at: now)
            progress.figures.challengeXP += choice.xp
            if let chosen = writes.challengesChosen.firstIndex(where: { $0.choice.hasSameID(as: choice) }) {
                writes.challengesChosen[chosen].completedAt = now
            } else {
                writes.challengesCompleted.append(choice)
            }
            challengeEvents.append(.challengeCompleted(StoredChallenge(choice: choice, completedAt: now)))
        }
    }

    // MARK: pieces

    /// Makes sure the progress holds current standings for the comparative goals still locked, so that a goal met
    /// on an ended week unlocks at this evaluation, dated now.
    mutating func holdWeekStandings() throws(Undecided) {
        // Every decision passes here: what is held is checked without making sets or weeks, and whether a goal is
        // unlocked is read by its place (what settling reads too), not by hashing its id.
        guard !progress.achievements.topPercentGoals.isEmpty else { return }
        let unlocked = progress.unlockState().evaluatedUnlocked
        if let held = progress.weekStandings, progress.achievements.everyTopPercentGoal(isUnlockedIn: unlocked, orAnswered: { goal in
            held.answers(for: goal.board, at: now, refresh: rules.standingsRefresh)
        }) {
            return
        }
        let boards = progress.lockedGoalBoards
        guard !boards.isEmpty else { return }
        let weeks = EndedWeeks.latest(at: now)
        if let read = pieces.weekStandings, read.weeks == weeks, boards.isSubset(of: read.boards) {
            progress.weekStandings = read
            return
        }
        throw .needs([.weekStandings(weeks: weeks, boards: boards)])
    }

    /// Notes the pieces to read when the progress does not know the stored challenges of `period`: for a past
    /// period, every period of the backfill window the progress does not know, read at once. A backfill seldom comes
    /// alone: an app that was offline sends what it logged over days when it reconnects, and each of those days had
    /// been a read of its own, waited for in the user's turn.
    mutating func noteUnknownChallenges(of period: ChallengeBook.Period, missing: inout Set<ProgressPiece>) {
        guard !progress.challenges.knows(period) else { return }
        missing.insert(.challenges(period))
        guard period.days.upperBound < today else { return }
        for kind in catalog.offeredChallengePeriods {
            var other = ChallengeBook.Period(kind, containing: earliestReachableDay)
            while other.start <= today {
                if !progress.challenges.knows(other) { missing.insert(.challenges(other)) }
                other = ChallengeBook.Period(kind, start: other.days.upperBound.adding(days: 1))
            }
        }
    }

    /// Tracks the speed windows the user's achievements need and drops the others; a window tracked from scratch
    /// needs every live log of its activity.
    mutating func trackSpeedWindows() throws(Undecided) {
        trackCombos()
        let required = progress.achievements.speedWindows
        // Nearly every decision: the windows tracked are the very set required (made the same below), which `==`
        // tells from the storage alone, where the two subtractions hash every window.
        if progress.accumulator.speedWindows == required { return }
        for window in progress.accumulator.speedWindows.subtracting(required) { progress.accumulator.untrack(window) }
        var wanted: Set<ProgressPiece> = []
        for window in required.subtracting(progress.accumulator.speedWindows) {
            if let logs = pieces.activityLogs[window.activity] {
                progress.accumulator.track(window, logs: logs)
            } else {
                wanted.insert(.activityLogs(window.activity))
            }
        }
        if !wanted.isEmpty { throw .needs(wanted) }
        progress.accumulator.speedWindows = required
    }

    /// The widest speed window the user's achievements have on `activity` (its new logs need their neighbours within
    /// it), or nil.
    mutating func widestSpeedWindow(of activity: String) -> Int? {
        var widest: Int?
        for window in progress.achievements.speedWindows where window.activity == activity {
            widest = max(widest ?? window.minutes, window.minutes)
        }
        return widest
    }

    /// Tracks the combos the user's achievements need (from the days already counted) and drops the others.
    mutating func trackCombos() {
        let required = progress.achievements.combos
        // Every decision passes here; most users have no combo at all.
        guard !required.isEmpty || !progress.accumulator.combos.isEmpty else { return }
        for parts in progress.accumulator.trackedCombos.subtracting(required) { progress.accumulator.untrack(combo: parts) }
        for parts in required { progress.accumulator.track(combo: parts) }
    }

    /// The user's achievements again, after templates or custom activities changed.
    mutating func remakeAchievements() throws(Undecided) {
        progress.achievements = rules.achievements(
            templates: progress.templates, activities: progress.customActivities, unlocks: progress.unlocks, today: today)
        try trackSpeedWindows()
    }

    /// The running state recomputed from every live fact (minus the log `leavingOut`).
    mutating func rebuild(leavingOut logID: String? = nil) throws(Undecided) {
        guard var facts = pieces.allFacts else { throw .needs([.allFacts]) }
        if let logID { facts.logs.removeAll { $0.id == logID } }
        progress.accumulator = ProgressAccumulator(
            rebuildingFrom: facts, settings: progress.settingsHistory, speedWindows: progress.achievements.speedWindows)
        trackCombos()
        writes.rebuilt = true
    }

    /// Templates may be changed only with premium (a running trial counts), checked at the moment of the change.
    mutating func requirePremium() throws(Undecided) {
        let subscription = progress.subscription
        guard !subscription.isPremium(at: now) else { return }
        throw .refused(.premiumRequired(
            trialAvailable: !subscription.trialUsed,
            message: subscription.status(at: now) == .lapsed
                ? "your premium has ended: templates keep counting but cannot be changed"
                : "achievement templates are a premium feature"))
    }
}
