import Foundation

/// A user's board scores recomputed from what is stored (rules.md, "Friends and leaderboards"): every key's score
/// from the live facts, the unlocks worth XP and the completed challenges. What ``ScoreChanges`` add up to must equal
/// this; the tests check it, and an operator's recomputation would use it.
public enum BoardScores {
    /// One board's score on one local day, and when it was last raised by what counts in it (the latest of the day's
    /// facts' `at`, unlocks and completions: what a recomputation knows of the moment a score rose).
    public struct DayScore: Sendable, Equatable {
        public var board: LeaderboardBoard
        public var day: LocalDay
        public var score: Int
        public var reachedAt: Date
    }

    /// Every key with a score above 0.
    /// - Parameters:
    ///   - facts: the live logs and the lesson completions (in the order they were stored: a lesson is worth XP once,
    ///     on the day of its first completion).
    ///   - unlocks: when each unlock worth XP happened.
    ///   - completedChallenges: when each completed challenge was completed, and its XP.
    ///   - settings: the zone history that places unlocks and completions on local days.
    ///   - zone: the zone now, for instants before any recorded change.
    ///   - builtInActivities: the catalog's activity ids, the ones with `activity` boards.
    public static func recompute(
        facts: ProgressFacts, unlocks: [Date], completedChallenges: [(at: Date, xp: Int)], settings: StreakSettingsHistory, zone: TimeZone,
        builtInActivities: Set<String>
    ) -> [BoardKey: Int] {
        var scores: [BoardKey: Int] = [:]
        for day in days(
            facts: facts, unlocks: unlocks, completedChallenges: completedChallenges, settings: settings, zone: zone,
            builtInActivities: builtInActivities)
        {
            for key in BoardKey.keys(of: day.board, on: day.day) { scores[key, default: 0] += day.score }
        }
        return scores.filter { $0.value != 0 }
    }

    /// Every board's score on every local day that has one (the rows a day-keyed store keeps), by the same rules.
    public static func days(
        facts: ProgressFacts, unlocks: [Date], completedChallenges: [(at: Date, xp: Int)], settings: StreakSettingsHistory, zone: TimeZone,
        builtInActivities: Set<String>
    ) -> [DayScore] {
        var byDay: [DayBoard: (score: Int, at: Date)] = [:]
        func add(_ board: LeaderboardBoard, on day: LocalDay, _ points: Int, at instant: Date) {
            let key = DayBoard(board: board, day: day)
            let held = byDay[key] ?? (0, .distantPast)
            byDay[key] = (held.score + points, max(held.at, instant))
        }
        var activeDays: [LocalDay: Date] = [:]
        for log in facts.logs {
            add(.logs, on: log.day, 1, at: log.at)
            add(.xp, on: log.day, ExperienceFormula.perLog, at: log.at)
            if builtInActivities.contains(log.activity) { add(.activity(log.activity), on: log.day, log.amount, at: log.at) }
            activeDays[log.day] = max(activeDays[log.day] ?? .distantPast, log.at)
        }
        var lessons: Set<String> = []
        for completion in facts.lessons {
            let at = activeDays[completion.day] ?? .distantPast
            if lessons.insert(completion.lesson).inserted { add(.xp, on: completion.day, ExperienceFormula.perLesson, at: at) }
            activeDays[completion.day] = at
        }
        for (day, at) in activeDays { add(.xp, on: day, ExperienceFormula.perActiveDay, at: at) }
        for at in unlocks { add(.xp, on: settings.localDay(of: at, fallback: zone), ExperienceFormula.perAchievement, at: at) }
        for challenge in completedChallenges {
            let day = settings.localDay(of: challenge.at, fallback: zone)
            add(.challenges, on: day, 1, at: challenge.at)
            add(.xp, on: day, challenge.xp, at: challenge.at)
        }
        return byDay.filter { $0.value.score != 0 }
            .map { DayScore(board: $0.key.board, day: $0.key.day, score: $0.value.score, reachedAt: $0.value.at) }
    }

    private struct DayBoard: Hashable {
        var board: LeaderboardBoard
        var day: LocalDay
    }
}
