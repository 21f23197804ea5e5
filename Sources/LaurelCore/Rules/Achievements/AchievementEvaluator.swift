/// Decides which achievements a user unlocks now, and the XP and level that follow.
///
/// A `level` rule depends on XP, and XP grows by 50 with each unlock, so evaluation repeats until nothing
/// more unlocks (a fixed point; it ends because each round unlocks at least one of finitely many).
public enum AchievementEvaluator {
    /// The outcome of one evaluation.
    public struct Outcome: Hashable, Sendable {
        /// The achievements unlocked now, in unlock order: the order of the definitions given (catalog order,
        /// then templates as the caller lists them), whatever round of the fixed point unlocked them.
        public var newlyUnlocked: [AchievementDefinition]
        /// XP after the new unlocks.
        public var xp: Int
        /// The level that XP gives (what the profile shows; it can be below `highestLevel` after deletions).
        public var level: Int
        /// The highest level ever reached, including now.
        public var highestLevel: Int
        /// Whether `highestLevel` grew, which is when a `LEVEL` push is due.
        public var reachedNewLevel: Bool
        public var xpToNextLevel: Int
    }

    /// - Parameters:
    ///   - definitions: the achievements being evaluated (active ones only), in catalog order.
    ///   - measures: the user's measures now.
    ///   - alreadyUnlocked: ids of the achievements the user unlocked before that are worth XP (see
    ///     `unlocksWorthXP`); they are skipped, and each counts 50 XP.
    ///   - challengeXP: XP of the challenges the user completed.
    ///   - highestLevelReached: the highest level reached before (1 for a new user); the `level` rule
    ///     measures the higher of this and the level the XP gives.
    public static func evaluate(
        definitions: [AchievementDefinition],
        measures: some RuleMeasures,
        alreadyUnlocked: Set<String>,
        challengeXP: Int = 0,
        highestLevelReached: Int = 1
    ) -> Outcome {
        evaluate(
            definitions: definitions, measures: measures, unlocked: definitions.map { alreadyUnlocked.contains($0.id) },
            unlocksWorthXP: alreadyUnlocked.count, challengeXP: challengeXP, highestLevelReached: highestLevelReached)
    }

    /// The same, with what the user unlocked before given by place (what a session knows without hashing every
    /// definition's id on every decision).
    /// - Parameters:
    ///   - unlocked: for each of `definitions`, whether the user unlocked it before.
    ///   - unlocksWorthXP: how many unlocks are worth XP (`unlocksWorthXP`), those of `definitions` included.
    public static func evaluate(
        definitions: [AchievementDefinition],
        measures: some RuleMeasures,
        unlocked: [Bool],
        unlocksWorthXP: Int,
        challengeXP: Int = 0,
        highestLevelReached: Int = 1
    ) -> Outcome {
        precondition(unlocked.count == definitions.count, "one flag for each definition")
        let baseXP = measures.baseXP + challengeXP
        var unlocked = unlocked
        var unlockedCount = unlocksWorthXP
        var newlyUnlockedIndices: [Int] = []
        var xp = baseXP + ExperienceFormula.perAchievement * unlockedCount
        var highest = max(highestLevelReached, 1)

        // Through the buffer, so that no definition is copied for a look (every decision looks at every one), and taken
        // once for every round: the definitions of a listing without templates are the catalog's, shared by every such
        // user, and each time the buffer was taken the array was retained and released on both executor threads.
        definitions.withUnsafeBufferPointer { definitions in
            while true {
                highest = max(highest, LevelCurve.level(forXP: xp))
                var unlockedThisRound = false
                for index in definitions.indices where !unlocked[index] {
                    // The target and the rule are read in place: a method called on the definition would copy it.
                    let measure = measures.measure(of: definitions[index].rule, level: highest)
                    guard AchievementDefinition.isMet(measure, target: definitions[index].target) else { continue }
                    unlocked[index] = true
                    unlockedCount += 1
                    newlyUnlockedIndices.append(index)
                    unlockedThisRound = true
                }
                guard unlockedThisRound else { break }
                xp = baseXP + ExperienceFormula.perAchievement * unlockedCount
            }
        }

        let level = LevelCurve.level(forXP: xp)
        return Outcome(
            newlyUnlocked: newlyUnlockedIndices.sorted().map { definitions[$0] },
            xp: xp,
            level: level,
            highestLevel: highest,
            reachedNewLevel: highest > max(highestLevelReached, 1),
            xpToNextLevel: LevelCurve.xpToNextLevel(forXP: xp)
        )
    }

    /// The unlocks worth 50 XP each: those of achievements still listed for the user, the catalog's and the
    /// current tiers of the user's templates (switched-off templates included, since their achievements come back
    /// unchanged when switched on). An unlock of a tier that was changed or removed, or of a deleted template, stays
    /// in the user's history but is worth nothing, so editing a target back and forth cannot make XP.
    /// - Parameters:
    ///   - unlocked: ids of every achievement the user unlocked.
    ///   - listed: every achievement listed for the user, evaluated or not.
    public static func unlocksWorthXP(_ unlocked: some Sequence<String>, listed: some Sequence<AchievementDefinition>) -> Set<String> {
        Set(unlocked).intersection(listed.lazy.map(\.id))
    }
}
