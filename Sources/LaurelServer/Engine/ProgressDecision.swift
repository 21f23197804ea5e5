import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// What the engine decides for one change, before anything is stored: the running state after it, the
/// achievements unlocked now, the figures, and the pushes that tell about it. Deciding is pure (old state and
/// change in, this out); storing it is the caller's business, in a transaction or as one `LogCommit`.
struct ProgressDecision: Sendable {
    /// An achievement unlocked by the change, with its ACHIEVEMENT object.
    struct Unlock: Sendable {
        var id: String
        var view: JSONObject
    }

    var state: EngineState
    var unlocks: [Unlock]
    var xp: Int
    var level: Int
    var highestLevel: Int
    /// In the order they are stored: UNLOCKs, then CHALLENGEs, then LEVEL, then STREAK.
    var pushes: [PushDraft]
    /// The last local day through which the streak keeps its length without new activity (nil: for good).
    var streakHoldsThrough: LocalDay?
    /// The challenges the change completes, when the caller decided them (a session's LOG; the transactional path
    /// stores its completions itself).
    var challengesCompleted: [ChallengeChoice] = []

    var streak: StreakState { state.streak }

    /// The figures kept in the store (without the engine state).
    var figures: StoredProgress {
        StoredProgress(
            xp: xp, level: level, maxLevel: highestLevel, currentStreak: streak.current, longestStreak: streak.longest,
            shownStreak: streak, streakHoldsThrough: streakHoldsThrough)
    }

    /// What the request answers and delivers, once the pushes are stored.
    func evaluation(pushes stored: [StoredPush]) -> Evaluation {
        Evaluation(unlocked: unlocks.map(\.view), xp: xp, level: level, streak: streak, pushes: stored)
    }

    /// Decides what follows from `accumulator`, which already holds the change.
    /// - Parameters:
    ///   - accumulator: the running state with the change applied.
    ///   - shownStreak: the streak the user last saw (a STREAK push tells what changed since).
    ///   - context: the user's zone, settings history and achievements.
    ///   - alreadyUnlocked: every achievement the user unlocked before; only those still listed are worth XP.
    ///   - highestLevelReached: the highest level reached before.
    ///   - challengeXP: the XP of every challenge the user completed, those completed by this change included.
    ///   - challengePushes: the CHALLENGE pushes of the challenges this change completed.
    ///   - removesFacts: the change deleted facts (a shorter streak is then a correction, not news).
    ///   - lastLogSeq: the number of the newest log `accumulator` includes, as far as known (see `EngineState`).
    ///   - now: when the change is evaluated.
    static func decide(
        accumulator: ProgressAccumulator, shownStreak: StreakState, context: EvaluationContext, alreadyUnlocked: Set<String>,
        highestLevelReached: Int, challengeXP: Int, challengePushes: [PushDraft] = [], removesFacts: Bool, lastLogSeq: Int64,
        now: Date
    ) -> ProgressDecision {
        let today = LocalDay(of: now, in: context.zone)
        let streak = accumulator.streak(today: today, settings: context.history)
        let measures = accumulator.measures
        let outcome = AchievementEvaluator.evaluate(
            definitions: context.achievements.evaluated, measures: measures,
            alreadyUnlocked: context.achievements.unlocksWorthXP(alreadyUnlocked),
            challengeXP: challengeXP, highestLevelReached: highestLevelReached)

        var unlocks: [Unlock] = []
        var pushes: [PushDraft] = []
        for definition in outcome.newlyUnlocked {
            guard let entry = context.achievements.entry(id: definition.id) else { continue }
            let view = AchievementView(entry: entry, measures: measures, level: outcome.highestLevel, unlockedAt: now).json
            unlocks.append(Unlock(id: definition.id, view: view))
            pushes.append(PushDraft(kind: .unlock, data: view))
        }
        pushes += challengePushes
        if outcome.reachedNewLevel {
            pushes.append(PushDraft(kind: .level, data: ["level": .int(outcome.level), "xp": .int(outcome.xp)]))
        }
        // A deleted log can shorten the streak, but that is a correction, not news (no `broken` for it).
        if !removesFacts, let event = StreakEvent.worthShowing(before: shownStreak, after: streak) {
            pushes.append(PushDraft(kind: .streak, data: ["event": .string(event.rawValue), "streak": StreakRendering.json(streak)]))
        }
        return ProgressDecision(
            state: EngineState(accumulator: accumulator, streak: streak, lastLogSeq: lastLogSeq), unlocks: unlocks, xp: outcome.xp, level: outcome.level,
            highestLevel: outcome.highestLevel, pushes: pushes,
            streakHoldsThrough: accumulator.streakHoldsThrough(settings: context.history))
    }
}
