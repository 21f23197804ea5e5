import Foundation
import LaurelCore
import Testing

/// Monthly templates (rules.md, "More template types"): each local calendar month has its own set of the tiers
/// (ids ending `.YYYY-MM`, names ending ` (November 2026)`), progress counts only that month's logs, and of past
/// months only the unlocked tiers stay listed.
@Suite struct MonthlyTemplateTests {
    static let tiers = [TemplateTier(tier: "bronze", target: 10), TemplateTier(tier: "silver", target: 20)]
    /// Saturday 28 November 2026, 12:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_867_200)

    @Test func eachMonthHasItsOwnTiersAndPastMonthsKeepOnlyTheirUnlocks() {
        let template = AchievementTemplateTests.template(id: "m1", type: .monthly, tiers: Self.tiers)
        let november = template.achievements(activityName: "Pushups", today: LocalDay("2026-11-26")!)
        #expect(november.map(\.id) == ["tpl.m1.10.2026-11", "tpl.m1.20.2026-11"])
        #expect(november.map(\.name) == ["Pushups Bronze (November 2026)", "Pushups Silver (November 2026)"])
        #expect(november[0].rule == .monthTotal(activity: "act-1", month: "2026-11"))
        let december = template.achievements(activityName: "Pushups", unlocked: ["tpl.m1.10.2026-11", "tpl.other.10.2026-11"], today: LocalDay("2026-12-01")!)
        #expect(december.map(\.id) == ["tpl.m1.10.2026-11", "tpl.m1.10.2026-12", "tpl.m1.20.2026-12"])
        #expect(TemplateDefaults.tiers(for: .monthly).map(\.target) == [100, 500, 1000])
    }

    @Test func onlyTheMonthsLogsCountAndANewMonthStartsAfresh() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now, premium: true)
        try user.apply(.createTemplates(TemplateDraft(activity: "pushups", type: .monthly, tiers: Self.tiers, name: nil)))
        let template = try #require(user.progress.templates.first)
        let prefix = AchievementTemplate.achievementIDPrefix(template: template.id)
        // 15 on 31 October (a past month's tiers are not listed: nothing to unlock), then 12 today.
        #expect(try user.log("pushups", 15, daysBack: 28).writes.unlocks.filter { $0.hasPrefix(prefix) }.isEmpty)
        #expect(try user.log("pushups", 12).writes.unlocks.filter { $0.hasPrefix(prefix) } == ["\(prefix)10.2026-11"])
        let entry = try #require(user.progress.achievements.entry(id: "\(prefix)20.2026-11"))
        let explained = AchievementExplainer(progress: user.progress, catalog: user.rules.catalog, now: user.now).explain(entry)
        #expect((explained.measure, explained.remaining) == (12, 8))
        #expect(explained.deadline == LocalDay("2026-12-01")!.start(in: .gmt))

        // December: November's unlock stays listed (and worth XP), December starts from 0.
        user.now = Self.now.addingTimeInterval(5 * 86_400)
        try user.apply(.catchUp)
        let listed = user.progress.achievements.entries.filter { $0.template?.id == template.id }.map(\.definition.id)
        #expect(listed == ["\(prefix)10.2026-11", "\(prefix)10.2026-12", "\(prefix)20.2026-12"])
        #expect(try user.log("pushups", 15).writes.unlocks.filter { $0.hasPrefix(prefix) } == ["\(prefix)10.2026-12"])
        #expect(user.storedFigures.xp == user.recomputedXP())
    }
}
