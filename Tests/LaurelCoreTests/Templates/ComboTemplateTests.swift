import Foundation
import LaurelCore
import Testing

/// Combo templates (rules.md, "More template types"): a combo day is a local day on which every listed activity's
/// live logs reach its amount; tiers count combo days. Backfills count on their own day, deletions take days away
/// (unlocks stay), and deleting one of the activities deactivates the template until all are restored.
@Suite struct ComboTemplateTests {
    static let tiers = [TemplateTier(tier: "bronze", target: 1), TemplateTier(tier: "silver", target: 2)]

    @Test func comboDaysNeedEveryActivityOnTheSameLocalDay() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: MonthlyTemplateTests.now, premium: true)
        let combo = [ComboDraftPart(activity: "pushups", amount: 10), ComboDraftPart(activity: "Squats", amount: 10)]
        try user.apply(.createTemplates(TemplateDraft(activity: nil, type: .combo, tiers: Self.tiers, name: nil, combo: combo)))
        let template = try #require(user.progress.templates.first)
        #expect(template.combo == [ComboPart(activityID: "pushups", amount: 10), ComboPart(activityID: "squats", amount: 10)])
        #expect(template.name == "Pushups + Squats")
        let prefix = AchievementTemplate.achievementIDPrefix(template: template.id)
        let bronze = try #require(user.progress.achievements.entry(id: "\(prefix)1"))
        #expect(bronze.definition.name == "Pushups + Squats Bronze" && bronze.unit == "days")

        try user.log("pushups", 10)
        #expect(try user.log("squats", 9).writes.unlocks.filter { $0.hasPrefix(prefix) }.isEmpty)
        #expect(try user.log("squats", 1).writes.unlocks.filter { $0.hasPrefix(prefix) } == ["\(prefix)1"])
        // Yesterday, backfilled: squats first, then pushups complete the day.
        try user.log("squats", 12, daysBack: 1)
        let second = try user.log("pushups", 10, daysBack: 1, id: "yesterday-pushups")
        #expect(second.writes.unlocks.filter { $0.hasPrefix(prefix) } == ["\(prefix)2"])
        #expect(user.progress.measures(at: user.now).measure(of: bronze.definition.rule, level: 1) == 2)
        // A deletion takes a day away; the unlock stays.
        try user.apply(.deleteLog(id: "yesterday-pushups"))
        #expect(user.progress.measures(at: user.now).measure(of: bronze.definition.rule, level: 1) == 1)
        #expect(user.progress.unlocks["\(prefix)2"] != nil)
        #expect(user.storedFigures.xp == user.recomputedXP())
    }

    @Test func deletingOneActivityDeactivatesAndRestoringAllReactivates() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: MonthlyTemplateTests.now, premium: true)
        let made = try user.apply(.createActivity(ActivityDraft(name: "Burpees", unit: .reps, icon: nil)))
        guard case .activity(let burpees) = made.outcome else { Issue.record("no activity"); return }
        let combo = [ComboDraftPart(activity: "pushups", amount: 5), ComboDraftPart(activity: "Burpees", amount: 5)]
        try user.apply(.createTemplates(TemplateDraft(activity: nil, type: .combo, tiers: Self.tiers, name: "Mix", combo: combo)))
        try user.apply(.setActivityDeleted(burpees.id, deleted: true))
        #expect(user.progress.templates.first?.active == false)
        #expect(user.progress.templates.first?.inactiveReason == AchievementTemplate.activityDeleted)
        try user.apply(.setActivityDeleted(burpees.id, deleted: false))
        #expect(user.progress.templates.first?.active == true)
        // Refused: one activity, a repeated one, an unknown one.
        for bad in [[combo[0]], [combo[0], combo[0]]] {
            #expect(throws: Refusal.self) { try user.apply(.createTemplates(TemplateDraft(activity: nil, type: .combo, tiers: Self.tiers, name: nil, combo: bad))) }
        }
        #expect(throws: Refusal.self) {
            try user.apply(.createTemplates(TemplateDraft(
                activity: nil, type: .combo, tiers: Self.tiers, name: nil, combo: [combo[0], ComboDraftPart(activity: "Juggling", amount: 1)])))
        }
    }
}
