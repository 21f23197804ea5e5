import Foundation
import LaurelCore
import Testing

@Suite struct AchievementEvaluatorTests {
    private func definition(_ id: String, _ rule: AchievementRule, _ target: Int, secret: Bool = false) -> AchievementDefinition {
        AchievementDefinition(id: id, name: id, category: "milestones", tier: .bronze, rule: rule, target: target, isSecret: secret)
    }

    private func measures(logs count: Int, days: Int = 1) -> ProgressMeasures {
        let logs = (0..<count).map { Fixture.log("log-\($0)", "squats", 1, Fixture.day("2024-05-01").adding(days: $0 % days).description) }
        return ProgressRecomputation(
            facts: ProgressFacts(logs: logs), settings: StreakSettingsHistory(), today: Fixture.day("2024-06-01"), speedWindows: []
        ).measures
    }

    @Test func newlyUnlockedComeInCatalogOrderAndOnlyOnce() {
        let catalog = [
            definition("first_exercise", .totalLogs, 1),
            definition("total_100", .totalLogs, 100),
            definition("streak_3", .streak, 3),
            definition("squats_5", .activityTotal(activity: "squats"), 5),
        ]
        let outcome = AchievementEvaluator.evaluate(definitions: catalog, measures: measures(logs: 6, days: 3), alreadyUnlocked: [])
        #expect(outcome.newlyUnlocked.map(\.id) == ["first_exercise", "streak_3", "squats_5"])
        // 60 for logs, 15 for days, 150 for three unlocks.
        #expect(outcome.xp == 225)
        #expect(outcome.level == 2)
        #expect(outcome.xpToNextLevel == 25)

        let again = AchievementEvaluator.evaluate(
            definitions: catalog, measures: measures(logs: 6, days: 3), alreadyUnlocked: Set(outcome.newlyUnlocked.map(\.id)),
            highestLevelReached: outcome.highestLevel
        )
        #expect(again.newlyUnlocked.isEmpty)
        #expect(again.xp == 225)
        #expect(!again.reachedNewLevel)
    }

    @Test func levelRulesReachAFixedPoint() {
        // 8 logs on one day: 85 XP, level 1. The two log achievements add 100 (185, level 2), which unlocks
        // level_2 in a second round (235); level_3 needs 250 and stays locked.
        let catalog = [
            definition("level_3", .level, 3, secret: true),
            definition("level_2", .level, 2),
            definition("first_exercise", .totalLogs, 1),
            definition("eight_logs", .totalLogs, 8),
        ]
        let outcome = AchievementEvaluator.evaluate(definitions: catalog, measures: measures(logs: 8), alreadyUnlocked: [])
        // 85 + 2 * 50 = 185 → level 2 → level_2 unlocks → 235, still level 2; level_3 stays locked.
        #expect(outcome.newlyUnlocked.map(\.id) == ["level_2", "first_exercise", "eight_logs"])
        #expect(outcome.xp == 235)
        #expect(outcome.level == 2)

        let chained = AchievementEvaluator.evaluate(
            definitions: catalog, measures: measures(logs: 8), alreadyUnlocked: [], challengeXP: 15
        )
        // 100 XP is level 2 at once; the three unlocks make 250 → level 3 → level_3 unlocks in a second
        // round, yet it is listed first (catalog order).
        #expect(chained.newlyUnlocked.map(\.id) == ["level_3", "level_2", "first_exercise", "eight_logs"])
        #expect(chained.xp == 300)
        #expect(chained.level == 3)
        #expect(chained.highestLevel == 3)
        #expect(chained.reachedNewLevel)
    }

    @Test func alreadyUnlockedCountForXPAndAreNotRepeated() {
        let catalog = [definition("first_exercise", .totalLogs, 1), definition("total_10", .totalLogs, 10)]
        let outcome = AchievementEvaluator.evaluate(
            definitions: catalog, measures: measures(logs: 1), alreadyUnlocked: ["first_exercise", "total_10"]
        )
        #expect(outcome.newlyUnlocked.isEmpty)
        #expect(outcome.xp == 15 + 100)
    }

    @Test func onlyUnlocksOfAchievementsStillListedAreWorthXP() {
        // An inactive template's tier is listed without being evaluated; a changed tier's old unlock is not listed.
        let listed = [definition("first_exercise", .totalLogs, 1), definition("tpl.t.20", .activityTotal(activity: "a"), 20)]
        let worth = AchievementEvaluator.unlocksWorthXP(["first_exercise", "tpl.t.20", "tpl.t.10"], listed: listed)
        #expect(worth == ["first_exercise", "tpl.t.20"])
        let outcome = AchievementEvaluator.evaluate(definitions: [listed[0]], measures: measures(logs: 1), alreadyUnlocked: worth)
        #expect(outcome.xp == 15 + 100)
    }

    @Test func unlocksGivenByPlaceDecideAsUnlocksGivenByID() {
        // The catalog, an active template and a switched-off one (listed, not evaluated); unlocks of each, and one
        // of a tier no longer listed.
        let activity = Activity(id: "rowing", name: "Rowing", unit: .reps, custom: true)
        let catalog = Catalog(name: "by-place", activities: [], achievements: [
            definition("first_exercise", .totalLogs, 1), definition("total_3", .totalLogs, 3), definition("total_100", .totalLogs, 100),
        ])
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        let tiers = [TemplateTier(tier: "bronze", target: 2), TemplateTier(tier: "silver", target: 50)]
        let templates = [
            AchievementTemplate(id: "on", name: "On", activityID: "rowing", type: .volume, tiers: tiers, createdAt: created, updatedAt: created),
            AchievementTemplate(id: "off", name: "Off", activityID: "rowing", type: .volume, tiers: tiers, active: false,
                                inactiveReason: "deactivated", createdAt: created, updatedAt: created),
        ]
        let achievements = UserAchievements(catalog: catalog, templates: templates, activities: [activity])
        let rowing = (0..<4).map { Fixture.log("row-\($0)", "rowing", 3, "2024-05-01") }
        let measures = ProgressRecomputation(
            facts: ProgressFacts(logs: rowing), settings: StreakSettingsHistory(), today: Fixture.day("2024-06-01"), speedWindows: []
        ).measures
        for unlocks in [[], ["first_exercise"], ["total_3", "tpl.on.2", "tpl.off.2", "tpl.gone.2"]] as [[String]] {
            let state = achievements.unlockState(of: unlocks)
            let worth = achievements.unlocksWorthXP(unlocks)
            #expect(state.worthXP == worth.count)
            #expect(state.evaluatedUnlocked == achievements.evaluated.map { worth.contains($0.id) })
            let byPlace = AchievementEvaluator.evaluate(
                definitions: achievements.evaluated, measures: measures, unlocked: state.evaluatedUnlocked, unlocksWorthXP: state.worthXP)
            let byID = AchievementEvaluator.evaluate(definitions: achievements.evaluated, measures: measures, alreadyUnlocked: worth)
            #expect(byPlace == byID, "\(unlocks)")
        }
    }

    @Test func theLevelRuleUsesTheHighestLevelEverReached() {
        let catalog = [definition("level_4", .level, 4)]
        let outcome = AchievementEvaluator.evaluate(
            definitions: catalog, measures: measures(logs: 1), alreadyUnlocked: [], highestLevelReached: 4
        )
        #expect(outcome.newlyUnlocked.map(\.id) == ["level_4"])
        #expect(outcome.level == 1)
        #expect(outcome.highestLevel == 4)
        #expect(!outcome.reachedNewLevel)
    }
}
