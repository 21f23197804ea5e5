/// The XP formula of the rules: 10 per live log or completed lesson, 5 per active day, 50 per unlocked
/// achievement, plus the XP of completed challenges.
public enum ExperienceFormula {
    public static let perLog = 10
    public static let perLesson = 10
    public static let perActiveDay = 5
    public static let perAchievement = 50

    /// - Parameters:
    ///   - liveLogs: logs not deleted.
    ///   - completedLessons: distinct lessons completed (a lesson completed twice counts once).
    ///   - activeDays: days with a live log or a lesson completion.
    ///   - unlockedAchievements: achievements the user has unlocked that are still listed
    ///     (`AchievementEvaluator.unlocksWorthXP`).
    ///   - challengeXP: the XP of the challenges the user completed.
    public static func xp(
        liveLogs: Int, completedLessons: Int, activeDays: Int, unlockedAchievements: Int, challengeXP: Int
    ) -> Int {
        liveLogs * perLog + completedLessons * perLesson + activeDays * perActiveDay
            + unlockedAchievements * perAchievement + challengeXP
    }
}
