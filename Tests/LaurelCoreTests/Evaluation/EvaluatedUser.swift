import Foundation
import LaurelCore
import Synchronization
import Testing

/// One user driven through the evaluator alone. What a store would keep of the user — the facts, the challenges
/// chosen and completed, the answers kept for retries, the figures — is kept here exactly as each decision's writes
/// say, and is what pieces are read from. A test can then load the user afresh from it (``loadedAgain()``), as a new
/// session would, and compare with the progress the decisions left.
struct EvaluatedUser {
    let rules: Rulebook
    let evaluator: ProgressEvaluator
    var now: Date
    /// The progress as the decisions left it.
    var progress: UserProgress

    // What a store would keep.
    var facts = ProgressFacts()
    var logs: [String: StoredLog] = [:]
    var storedFacts: [LoadedPieces.StoredFactKey: StoredFact] = [:]
    var challenges: [ChallengeBook.Period: [StoredChallenge]] = [:]
    var storedFigures = ProgressFigures()
    var storedUnlocks: [String: Date] = [:]
    var storedAllowance = LogAllowance()
    /// The board scores the decisions' ``ScoreChanges`` add up to, as the store would keep them.
    var boardScores: [BoardKey: Int] = [:]
    /// The ended weeks' rankings a store would hold, where this user stands on them.
    var weekStandings: [WeekStanding] = []
    /// Every event pushed, in order.
    var events: [ProgressEvent] = []
    /// The pieces the decisions asked for, by kind of change.
    var piecesRead: [ProgressPiece] = []
    /// How many times the decisions asked for pieces: each a read of its own on a server.
    var reads = 0
    private var nextID = 0

    init(catalog: Catalog, zone: String = "UTC", now: Date, limits: UserLimits = UserLimits(), premium: Bool = false) {
        rules = Rulebook(catalog: catalog, limits: limits)
        let counter = IDCounter()
        evaluator = ProgressEvaluator(rules: rules, user: UserID(7), makeID: { counter.next() })
        self.now = now
        let settings = UserSettings(timeZone: zone)
        var history = StreakSettingsHistory()
        let zoneValue = TimeZone(identifier: zone)!
        history.setRestDay(nil, from: LocalDay(of: now, in: zoneValue))
        history.setVacation(false, from: LocalDay(of: now, in: zoneValue))
        history.setZone(zone, from: now)
        progress = UserProgress(
            settings: settings, settingsHistory: history,
            subscription: SubscriptionState(status: premium ? .active : .free, endsAt: nil, trialUsed: false), customActivities: [],
            templates: [], achievements: rules.catalogAchievements, unlocks: [:], accumulator: ProgressAccumulator(),
            figures: ProgressFigures(), challenges: ChallengeBook(), allowance: LogAllowance())
    }

    /// Decides `change` at `now`, reading what it needs from what is kept here, and keeps what it writes. Throws the
    /// refusal of a refused change.
    @discardableResult
    mutating func apply(_ change: UserChange) throws -> Decision {
        var pieces = LoadedPieces()
        for _ in 0..<8 {
            // A reported fact is decided on the progress itself, as a session decides it: what a decision that needs
            // pieces or is refused hands back is what the next one starts from. The progress before is kept for a
            // retry, which a session reads again.
            let before = progress
            let evaluation: Evaluation
            if ProgressEvaluator.decidesInPlace(change) {
                let handedBack: UserProgress?
                (evaluation, handedBack) = evaluator.evaluate(change, taking: progress, with: pieces, now: now)
                if let handedBack { progress = handedBack }
            } else {
                evaluation = evaluator.evaluate(change, on: progress, with: pieces, now: now)
            }
            switch evaluation {
            case .needs(let wanted):
                piecesRead += wanted
                reads += 1
                for piece in wanted { read(piece, into: &pieces) }
            case .refused(let refusal):
                throw refusal
            case .decided(let decision):
                // The store refuses a new fact whose id is taken (`duplicate`): the route then reads the stored fact.
                if let fact = decision.writes.fact, let stored = storedFacts[.init(fact.kind, fact.id)] {
                    pieces.storedFacts[.init(fact.kind, fact.id)] = .some(stored)
                    progress = before
                    continue
                }
                keep(decision)
                return decision
            }
        }
        Issue.record("the evaluator kept asking for pieces")
        throw Refusal.conflict("no decision")
    }

    private mutating func read(_ piece: ProgressPiece, into pieces: inout LoadedPieces) {
        switch piece {
        case .challenges(let period):
            progress.challenges.know(period, stored: challenges[period] ?? [])
        case .storedFact(let kind, let id):
            pieces.storedFacts[.init(kind, id)] = .some(storedFacts[.init(kind, id)])
        case .log(let id):
            pieces.logs[id] = .some(logs[id])
        case .neighbours(let activity, let around, let minutes):
            let reach = TimeInterval(minutes * 60)
            pieces.neighbours[activity] = facts.logs.filter { $0.activity == activity && abs($0.at.timeIntervalSince(around)) <= reach }
        case .activityLogs(let activity):
            pieces.activityLogs[activity] = facts.logs.filter { $0.activity == activity }
        case .logsWithin(let start, let minutes):
            let end = start.addingTimeInterval(TimeInterval(minutes * 60))
            pieces.logsWithin[start] = facts.logs.filter { $0.at >= start && $0.at <= end }
        case .allFacts:
            pieces.allFacts = facts
        case .weekStandings(let weeks, let boards):
            pieces.weekStandings = WeekStandings(
                weeks: weeks, boards: boards, standings: weekStandings.filter { weeks.contains($0.week) && boards.contains($0.board) }, readAt: now)
        }
    }

    /// Keeps what a decision writes, as the store would.
    private mutating func keep(_ decision: Decision) {
        let writes = decision.writes
        for (key, delta) in writes.scores.deltas {
            let score = boardScores[key, default: 0] + delta
            boardScores[key] = score == 0 ? nil : score
        }
        events += decision.events
        if let fact = writes.fact {
            storedFacts[.init(fact.kind, fact.id)] = StoredFact(content: Self.content(of: fact), requestedAt: fact.requestedAt, answer: "{\"duplicate\":false}")
            switch fact.content {
            case .log(let activity, let amount, let hour, let note):
                let log = StoredLog(id: fact.id, activityID: activity, amount: amount, at: fact.at, day: fact.day, localHour: hour, note: note)
                logs[fact.id] = log
                facts.logs.append(log.fact)
            case .lesson(let lesson):
                facts.lessons.append(LessonCompletion(lesson: lesson.id, category: lesson.category, day: fact.day))
            case .event(let name):
                facts.events.append(ReportedEvent(name: name, at: fact.at))
            case .reminder(let minutes, let answered):
                facts.reminders.append(ReminderFact(id: fact.id, at: fact.at, day: fact.day, windowMinutes: minutes, answered: answered))
            }
        }
        if let id = writes.deletedLog {
            logs[id]?.deleted = true
            facts.logs.removeAll { $0.id == id }
        }
        for chosen in writes.challengesChosen {
            challenges[ChallengeBook.Period(chosen.choice.period, start: chosen.choice.periodStart), default: []].append(chosen)
        }
        for choice in writes.challengesCompleted {
            let period = ChallengeBook.Period(choice.period, start: choice.periodStart)
            if let index = challenges[period]?.firstIndex(where: { $0.choice.slot == choice.slot }) {
                challenges[period]![index].completedAt = decision.decidedAt
            }
        }
        for prefix in writes.deletedUnlockPrefixes { storedUnlocks = storedUnlocks.filter { !$0.key.hasPrefix(prefix) } }
        for id in writes.unlocks { storedUnlocks[id] = decision.decidedAt }
        if let figures = writes.figures { storedFigures = figures }
        if let allowance = writes.allowance { storedAllowance = allowance }
        progress = decision.progress
    }

    private static func content(of fact: NewFact) -> StoredFact.Content {
        switch fact.content {
        case .log(let activity, let amount, _, let note): .log(activityID: activity, amount: amount, note: note)
        case .lesson(let lesson): .lesson(id: lesson.id)
        case .event(let name): .event(name: name)
        case .reminder: .reminder
        }
    }

    /// The user loaded afresh from what is kept, as a new session would: the running state recomputed from every
    /// fact, the rest as stored.
    func loadedAgain() -> UserProgress {
        var loaded = progress
        loaded.accumulator = ProgressAccumulator(
            rebuildingFrom: facts, settings: progress.settingsHistory, speedWindows: progress.achievements.speedWindows)
        for parts in progress.achievements.combos { loaded.accumulator.track(combo: parts) }
        loaded.unlocks = storedUnlocks
        loaded.figures = storedFigures
        loaded.allowance = storedAllowance
        var book = ChallengeBook()
        for (period, stored) in challenges { book.know(period, stored: stored) }
        loaded.challenges = book
        return loaded
    }

    /// XP as rules.md counts it from what is kept: facts, unlocks of achievements listed now, completed challenges.
    func recomputedXP() -> Int {
        let accumulator = ProgressAccumulator(rebuildingFrom: facts, settings: progress.settingsHistory, speedWindows: [])
        let challengeXP = challenges.values.joined().filter { $0.completedAt != nil }.reduce(0) { $0 + $1.choice.xp }
        return accumulator.baseXP + ExperienceFormula.perAchievement * progress.achievements.unlocksWorthXP(storedUnlocks.keys).count + challengeXP
    }

    /// Every board score recomputed from what is kept (``BoardScores``).
    func recomputedBoardScores() -> [BoardKey: Int] {
        let worth = progress.achievements.unlocksWorthXP(storedUnlocks.keys)
        let completed = challenges.values.joined().compactMap { stored in stored.completedAt.map { (at: $0, xp: stored.choice.xp) } }
        return BoardScores.recompute(
            facts: facts, unlocks: storedUnlocks.filter { worth.contains($0.key) }.map(\.value), completedChallenges: completed,
            settings: progress.settingsHistory, zone: progress.zone, builtInActivities: Set(rules.catalog.activities.map(\.id)))
    }

    /// A LOG of `amount` of `activity`, `daysBack` days before now (at the same time of day), with an id.
    @discardableResult
    mutating func log(_ activity: String, _ amount: Int = 1, daysBack: Int = 0, id: String? = nil, note: String? = nil) throws -> Decision {
        nextID += 1
        let at = daysBack == 0 ? nil : now.addingTimeInterval(-Double(daysBack) * 86_400)
        return try apply(.report(ReportedFact(.log(activity: activity, amount: amount, note: note), id: id ?? "log-\(nextID)", at: at)))
    }
}

/// Ids for new templates and activities, numbered so that runs repeat.
final class IDCounter: Sendable {
    private let counter = Mutex(0)

    func next() -> String {
        counter.withLock { value in
            value += 1
            return "00000000-0000-4000-8000-\(String(value, radix: 16).leftPadded(to: 12))"
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
