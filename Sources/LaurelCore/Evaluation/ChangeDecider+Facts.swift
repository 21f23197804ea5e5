import Foundation

/// LOG, LESSON.DONE and EVENT: a fact reported under the client's idempotency key. A retry gets the first answer
/// back, whatever the clock or the allowance say now; a new fact is checked (time window, allowance, activity),
/// chooses the challenges of the current period its local day lies in if nobody needed them yet, and counts.
extension ChangeDecider {
    mutating func record(_ fact: ReportedFact) throws(Undecided) -> ChangeOutcome {
        let key = fact.id.map { LoadedPieces.StoredFactKey(fact.kind, $0) }
        if let key, let earlier = pieces.storedFacts[key], let stored = earlier {
            guard Self.isSame(fact, as: stored, progress: progress, catalog: catalog) else {
                throw .refused(.conflict("id \"\(key.id)\" was used for a different \(fact.kind.noun)"))
            }
            if fact.kind == .reminder { return try replayReminder(id: key.id) }
            return .replayed(answer: stored.answer ?? "")
        }
        let at = fact.at ?? now
        let new: NewFact
        // Spent here, kept once the fact is decided: a decision that needs pieces first, or is refused, changes
        // nothing a decision made in place would carry into the next one.
        var allowance = progress.allowance
        do throws(Refusal) {
            new = try admit(fact, at: at, spending: &allowance)
        } catch {
            // A refusal is for new facts only: a retry of one stored before is answered first.
            if let key, pieces.storedFacts[key] == nil { throw .needs([.storedFact(key.kind, id: key.id)]) }
            throw .refused(error)
        }
        if case .reminder = new.content { return try recordReminder(new, allowance: allowance) }

        try trackSpeedWindows()
        var missing: Set<ProgressPiece> = []
        var neighbours: [LoggedFact] = []
        if case .log(let activity, _, _, _) = new.content, let widest = widestSpeedWindow(of: activity) {
            if let loaded = pieces.neighbours[activity] {
                neighbours = loaded
            } else {
                missing.insert(.neighbours(activity: activity, around: at, minutes: widest))
            }
        }
        // The fact's periods: their challenges may be completed by it, and a current one is chosen for it now.
        // (Made where they are used, not kept in an array: one allocation a LOG less.)
        for kind in catalog.offeredChallengePeriods { noteUnknownChallenges(of: ChallengeBook.Period(kind, containing: new.day), missing: &missing) }
        if !missing.isEmpty { throw .needs(missing) }

        progress.allowance = allowance
        baseline.noteFactDay(new.day, in: progress.accumulator)
        switch new.content {
        case .log(let activity, let amount, let localHour, _):
            let log = LoggedFact(id: new.id, activity: activity, amount: amount, at: new.at, day: new.day, localHour: localHour)
            progress.accumulator.record(log, neighbours: neighbours, settings: progress.settingsHistory)
        case .lesson(let lesson):
            progress.accumulator.record(
                LessonCompletion(lesson: lesson.id, category: lesson.category, day: new.day), settings: progress.settingsHistory)
        case .event(let name):
            progress.accumulator.record(ReportedEvent(name: name, at: new.at))
        case .reminder:
            break
        }
        // Chosen with the fact counted: a week's target chosen late is capped at what the week can still hold, and
        // the fact's own day is active by then. (What the choice reads of the history lies before the period, which
        // the fact is not.)
        for kind in catalog.offeredChallengePeriods {
            let period = ChallengeBook.Period(kind, containing: new.day)
            if period == ChallengeBook.Period(kind, containing: today) { chooseIfUnchosen(period) }
        }
        writes.fact = new
        writes.allowance = progress.allowance
        settle(removesFacts: false)
        return .recorded(new)
    }

    /// The new fact as it will be stored, or why it is refused: `at` within the window, the allowance not spent,
    /// the activity live.
    private mutating func admit(_ fact: ReportedFact, at: Date, spending allowance: inout LogAllowance) throws(Refusal) -> NewFact {
        switch rules.logTimes.problem(with: at, now: now) {
        case .inFuture?: throw .invalidArgument(field: "at", message: "at is more than 5 minutes in the future")
        case .beforeBackfillWindow?: throw .invalidArgument(field: "at", message: "at is older than the backfill window")
        case nil: break
        }
        if let wait = allowance.spend(at: now, limits: rules.limits) { throw .rateLimited(retryAfterMs: wait) }
        let local = at == now ? localNow : LocalDateTime(of: at, in: progress.zone)
        let content: NewFact.Content
        switch fact.content {
        case .log(let named, let amount, let note):
            guard let activity = progress.liveActivity(named, catalog: catalog) else { throw .notFound(field: "activity") }
            content = .log(activityID: activity.id, amount: amount, localHour: local.hour, note: note)
        case .lesson(let lesson):
            content = .lesson(lesson)
        case .event(let name):
            content = .event(name: name)
        case .reminder:
            content = .reminder(windowMinutes: try reminderWindow(on: local.day), answered: false)
        }
        return NewFact(content: content, id: fact.id ?? evaluator.makeID(), at: at, day: local.day, requestedAt: fact.at)
    }

    /// Whether a retry reports the fact stored under its id: the same content, and the same `at` as sent (both
    /// absent, or the same instant to the microsecond).
    static func isSame(_ fact: ReportedFact, as stored: StoredFact, progress: UserProgress, catalog: Catalog) -> Bool {
        let sameTime: Bool
        switch (stored.requestedAt, fact.at) {
        case (nil, nil): sameTime = true
        case (let a?, let b?): sameTime = abs(a.timeIntervalSince(b)) < 0.000_001
        default: sameTime = false
        }
        guard sameTime else { return false }
        switch (fact.content, stored.content) {
        case (.log(let named, let amount, let note), .log(let activityID, let storedAmount, let storedNote)):
            // The activity as named now, deleted custom activities included (a retry after the activity was deleted).
            let activity = catalog.builtinActivity(named: named) ?? progress.customActivity(named)
            return amount == storedAmount && note == storedNote && activity?.id == activityID
        case (.lesson(let lesson), .lesson(let id)):
            return lesson.id == id
        case (.event(let name), .event(let storedName)):
            return name == storedName
        case (.reminder, .reminder):
            return true
        default:
            return false
        }
    }
}
