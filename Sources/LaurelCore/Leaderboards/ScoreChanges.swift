import Foundation

/// How one decided change moves the user's board scores (rules.md, "Friends and leaderboards"): what it adds to (or,
/// for a deleted log or a removed unlock, takes from) each board key, decided with the change and committed with it.
///
/// Worked out by comparing the progress before and after the decision on what the change can touch: the local day of
/// a new or deleted fact (its logs, amounts, counted lesson and whether the day is active), the unlocks worth XP (each
/// counts 50 on the local day of its `unlocked_at`), and the challenges completed now (on today's local day). Scores
/// summed from these changes equal ``BoardScores`` recomputed from the facts.
public struct ScoreChanges: Sendable, Equatable {
    /// What a change adds to one board on one local day; the day's week, month and `all` keys move by as much.
    public struct DayChange: Sendable, Equatable {
        public var board: LeaderboardBoard
        public var day: LocalDay
        public var delta: Int
    }

    /// Each touched board and day, never with 0: a handful at most (a LOG of today touches three), so an array
    /// searched in line costs less than hashing keys.
    public private(set) var days: [DayChange] = []

    public init() {}

    public var isEmpty: Bool { days.isEmpty }

    /// Each touched key's change (day, week, month and `all` of every touched day), never 0.
    public var deltas: [BoardKey: Int] {
        var deltas: [BoardKey: Int] = [:]
        for change in days {
            for key in BoardKey.keys(of: change.board, on: change.day) {
                let sum = deltas[key, default: 0] + change.delta
                deltas[key] = sum == 0 ? nil : sum
            }
        }
        return deltas
    }

    /// The changes of `decision`, made on `before`.
    /// - Parameter builtInActivities: the catalog's activity ids; only these have `activity` boards.
    public init(of decision: Decision, before: UserProgress, builtInActivities: Set<String>) {
        // Read in place, not bound to locals: a copy of a progress or an accumulator retains every table in it.
        // The day a new log or lesson, or a deleted log, lies on, with the log's activity.
        var touched: (day: LocalDay, activity: String?)?
        if let fact = decision.writes.fact {
            switch fact.content {
            case .log(let activity, _, _, _): touched = (fact.day, activity)
            case .lesson: touched = (fact.day, nil)
            case .event, .reminder: break
            }
        }
        if case .logDeleted(let log) = decision.outcome { touched = (log.day, log.activityID) }
        if let (day, activity) = touched {
            let (old, new) = (before.accumulator.figures(on: day), decision.progress.accumulator.figures(on: day))
            add(.logs, on: day, new.logs - old.logs)
            let activeChange = (new.isActive ? 1 : 0) - (old.isActive ? 1 : 0)
            let lessonChange = decision.progress.accumulator.distinctLessons - before.accumulator.distinctLessons
            add(.xp, on: day, (new.logs - old.logs) * ExperienceFormula.perLog + lessonChange * ExperienceFormula.perLesson
                + activeChange * ExperienceFormula.perActiveDay)
            if let activity, builtInActivities.contains(activity) {
                let amount = decision.progress.accumulator.figures(of: activity, on: day).amount
                add(.activity(activity), on: day, amount - before.accumulator.figures(of: activity, on: day).amount)
            }
        }
        // Which unlocks are worth XP changes only with unlocks, templates and the catalog, never with a new fact alone:
        // a LOG without unlocks skips comparing the sets.
        let writes = decision.writes
        if !writes.unlocks.isEmpty || !writes.deletedUnlockPrefixes.isEmpty || !writes.templates.isEmpty || !writes.deletedTemplates.isEmpty
            || (writes.fact == nil && writes.deletedLog == nil) {
            let after = decision.progress
            let (worthBefore, worthAfter) = (before.unlocksWorthXP, after.unlocksWorthXP)
            for id in worthAfter.subtracting(worthBefore) {
                guard let at = after.unlocks[id] else { continue }
                add(.xp, on: after.settingsHistory.localDay(of: at, fallback: after.zone), ExperienceFormula.perAchievement)
            }
            for id in worthBefore.subtracting(worthAfter) {
                guard let at = before.unlocks[id] else { continue }
                add(.xp, on: before.settingsHistory.localDay(of: at, fallback: before.zone), -ExperienceFormula.perAchievement)
            }
        }
        if !writes.challengesCompleted.isEmpty || writes.challengesChosen.contains(where: { $0.completedAt != nil }) {
            let today = decision.progress.settingsHistory.localDay(of: decision.decidedAt, fallback: decision.progress.zone)
            let completed = writes.challengesChosen.filter { $0.completedAt != nil }.map(\.choice) + writes.challengesCompleted
            for challenge in completed {
                add(.challenges, on: today, 1)
                add(.xp, on: today, challenge.xp)
            }
        }
    }

    /// Adds `delta` to `board` on `day` (and so to its four keys).
    public mutating func add(_ board: LeaderboardBoard, on day: LocalDay, _ delta: Int) {
        guard delta != 0 else { return }
        guard let index = days.firstIndex(where: { $0.day == day && $0.board == board }) else {
            days.append(DayChange(board: board, day: day, delta: delta))
            return
        }
        days[index].delta += delta
        if days[index].delta == 0 { days.remove(at: index) }
    }
}
