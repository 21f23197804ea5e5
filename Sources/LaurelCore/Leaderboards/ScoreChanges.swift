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

    /// What the score changes of a decision read of the progress before it, taken as the decision goes: the unlocks
    /// and what makes them worth XP when it starts, the figures of the one day a new or deleted fact touches before
    /// it is counted or taken off. A decision that changes the session's progress in place has no "before" to
    /// compare with afterwards, and these few figures are all the comparison reads.
    public struct Baseline: Sendable {
        let achievements: UserAchievements
        let unlocks: [String: Date]
        let settingsHistory: StreakSettingsHistory
        let zone: TimeZone
        /// Whether the new fact's day was active before it (a log's or a lesson's).
        var factDayWasActive = false
        /// The distinct lessons counted before a new lesson.
        var distinctLessons = 0
        /// The deleted log's day and its activity's amount that day, before the log was taken off.
        var deletedLogDay: (figures: DayFigures, activityAmount: Int)?

        /// The baseline of a decision starting from `progress`.
        public init(startingFrom progress: borrowing UserProgress) {
            achievements = progress.achievements
            unlocks = progress.unlocks
            settingsHistory = progress.settingsHistory
            zone = progress.zone
        }

        /// Notes the figures of `day` before a new fact on it is counted.
        public mutating func noteFactDay(_ day: LocalDay, in accumulator: borrowing ProgressAccumulator) {
            factDayWasActive = accumulator.isActive(day)
            distinctLessons = accumulator.distinctLessons
        }

        /// Notes the figures of the day of `log` before it is taken off.
        public mutating func noteDeletedLog(_ log: StoredLog, in accumulator: borrowing ProgressAccumulator) {
            deletedLogDay = (accumulator.figures(on: log.day), accumulator.figures(of: log.activityID, on: log.day).amount)
        }

        var unlocksWorthXP: Set<String> { achievements.unlocksWorthXP(unlocks.keys) }
    }

    /// The changes of a decision, made on what `before` noted: what it writes, its outcome and the progress `after`
    /// it, decided at `decidedAt`. (Asked for before the decision is made up, so that its parts are not copied into
    /// one.)
    /// - Parameter builtInActivities: the catalog's activity ids; only these have `activity` boards.
    public init(
        of writes: borrowing ProgressWrites, outcome: borrowing ChangeOutcome, after: borrowing UserProgress, decidedAt: Date,
        before: borrowing Baseline, builtInActivities: Set<String>
    ) {
        // Room for a LOG's three at once, not grown one append at a time.
        days.reserveCapacity(4)
        // Borrowed: an initializer otherwise takes its arguments as copies of its own.
        // Read in place, not bound to locals: a copy of a progress or an accumulator retains every table in it.
        // A new log or lesson counts on its stored day, the day's first fact making it active; a deleted log is taken
        // off by comparing the day's figures before and after (a day can stay active through another fact).
        if let fact = writes.fact {
            switch fact.content {
            case .log(let activity, let amount, _, _):
                let firstOfDay = !before.factDayWasActive
                add(.logs, on: fact.day, 1)
                add(.xp, on: fact.day, ExperienceFormula.perLog + (firstOfDay ? ExperienceFormula.perActiveDay : 0))
                if builtInActivities.contains(activity) { add(.activity(activity), on: fact.day, amount) }
            case .lesson:
                let firstOfDay = !before.factDayWasActive
                let counted = after.accumulator.distinctLessons > before.distinctLessons
                add(.xp, on: fact.day, (counted ? ExperienceFormula.perLesson : 0) + (firstOfDay ? ExperienceFormula.perActiveDay : 0))
            case .event, .reminder:
                break
            }
        }
        if let deleted = before.deletedLogDay, case .logDeleted(let log) = copy outcome {
            let (old, new) = (deleted.figures, after.accumulator.figures(on: log.day))
            add(.logs, on: log.day, new.logs - old.logs)
            let activeChange = (new.isActive ? 1 : 0) - (old.isActive ? 1 : 0)
            add(.xp, on: log.day, (new.logs - old.logs) * ExperienceFormula.perLog + activeChange * ExperienceFormula.perActiveDay)
            if builtInActivities.contains(log.activityID) {
                let amount = after.accumulator.figures(of: log.activityID, on: log.day).amount
                add(.activity(log.activityID), on: log.day, amount - deleted.activityAmount)
            }
        }
        // Which unlocks are worth XP changes only with unlocks, templates and the catalog, never with a new fact alone:
        // a LOG without unlocks skips comparing the sets.
        if !writes.unlocks.isEmpty || !writes.deletedUnlockPrefixes.isEmpty || !writes.templates.isEmpty || !writes.deletedTemplates.isEmpty
            || (writes.fact == nil && writes.deletedLog == nil) {
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
            let today = after.settingsHistory.localDay(of: decidedAt, fallback: after.zone)
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
