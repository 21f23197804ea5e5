import Foundation

/// A user's board scores recomputed from what is stored (rules.md, "Friends and leaderboards"): every key's score
/// from the live facts, the unlocks worth XP and the completed challenges. What ``ScoreChanges`` add up to must equal
/// this; the tests check it, and an operator's recomputation would use it.
public enum BoardScores {
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
        var byDay: [DayBoard: Int] = [:]
        func add(_ board: LeaderboardBoard, on day: LocalDay, _ points: Int) { byDay[DayBoard(board: board, day: day), default: 0] += points }
        var activeDays: Set<LocalDay> = []
        for log in facts.logs {
            add(.logs, on: log.day, 1)
            add(.xp, on: log.day, ExperienceFormula.perLog)
            if builtInActivities.contains(log.activity) { add(.activity(log.activity), on: log.day, log.amount) }
            activeDays.insert(log.day)
        }
        var lessons: Set<String> = []
        for completion in facts.lessons {
            if lessons.insert(completion.lesson).inserted { add(.xp, on: completion.day, ExperienceFormula.perLesson) }
            activeDays.insert(completion.day)
        }
        for day in activeDays { add(.xp, on: day, ExperienceFormula.perActiveDay) }
        for at in unlocks { add(.xp, on: settings.localDay(of: at, fallback: zone), ExperienceFormula.perAchievement) }
        for challenge in completedChallenges {
            let day = settings.localDay(of: challenge.at, fallback: zone)
            add(.challenges, on: day, 1)
            add(.xp, on: day, challenge.xp)
        }
        var scores: [BoardKey: Int] = [:]
        for (dayBoard, points) in byDay where points != 0 {
            for key in BoardKey.keys(of: dayBoard.board, on: dayBoard.day) { scores[key, default: 0] += points }
        }
        return scores.filter { $0.value != 0 }
    }

    private struct DayBoard: Hashable {
        var board: LeaderboardBoard
        var day: LocalDay
    }
}
