import Foundation
import LaurelCore
import Testing

/// Progressive templates (rules.md, "More template types"): the user's tiers, then twice the previous target while
/// it stays at most 10^9; of those generated targets only the unlocked ones and the next one exist, so the list grows
/// with the user's effort only, and one evaluation unlocks as many as the total reaches.
@Suite struct ProgressiveTemplateTests {
    static let tiers = [TemplateTier(tier: "bronze", target: 10), TemplateTier(tier: "silver", target: 20)]

    @Test func generatedTargetsExistWhenUnlockedAndOneMore() {
        let template = AchievementTemplateTests.template(id: "p1", type: .progressive, tiers: Self.tiers)
        let fresh = template.achievements(activityName: "Pushups")
        #expect(fresh.map(\.target) == [10, 20, 40])
        #expect(fresh.last.map { ($0.id, $0.name, $0.tier, $0.rule) } ?? ("", "", .bronze, .totalLogs)
            == ("tpl.p1.40", "Pushups 40", .platinum, .activityTotal(activity: "act-1")))
        let unlocked: Set<String> = ["tpl.p1.40", "tpl.p1.80"]
        #expect(template.achievements(activityName: "Pushups", unlocked: unlocked).map(\.target) == [10, 20, 40, 80, 160])
        // The doubling stops at 10^9.
        let high = AchievementTemplateTests.template(id: "p2", type: .progressive, tiers: [TemplateTier(tier: "bronze", target: 600_000_000)])
        #expect(high.achievements(activityName: "A", unlocked: ["tpl.p2.600000000"]).map(\.target) == [600_000_000])
        let justUnder = AchievementTemplateTests.template(id: "p3", type: .progressive, tiers: [TemplateTier(tier: "bronze", target: 500_000_000)])
        #expect(justUnder.achievements(activityName: "A", unlocked: ["tpl.p3.1000000000"]).map(\.target) == [500_000_000, 1_000_000_000])
        #expect(TemplateDefaults.tiers(for: .progressive).map(\.target) == [50, 100, 500, 1000])
    }

    @Test func oneEvaluationUnlocksEveryTargetTheTotalReaches() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: AchievementExplainerTests.now, premium: true)
        try user.apply(.createTemplates(TemplateDraft(activity: "pushups", type: .progressive, tiers: Self.tiers, name: nil)))
        let template = try #require(user.progress.templates.first)
        let decision = try user.log("pushups", 100)
        let prefix = AchievementTemplate.achievementIDPrefix(template: template.id)
        #expect(decision.writes.unlocks.filter { $0.hasPrefix(prefix) } == ["10", "20", "40", "80"].map { prefix + $0 })
        let listed = user.progress.achievements.entries.filter { $0.template?.id == template.id }.map(\.definition.target)
        #expect(listed == [10, 20, 40, 80, 160])
        // Unlocks are worth XP like any other: 4 of them, with the catalog's first_exercise and pushups_100.
        #expect(user.storedFigures.unlocked == 6)
        #expect(user.storedFigures.xp == user.recomputedXP())
        // A deleted log takes nothing back: the unlocked targets stay listed.
        try user.apply(.deleteLog(id: "log-1"))
        #expect(user.progress.achievements.entries.filter { $0.template?.id == template.id }.map(\.definition.target) == listed)
    }
}
