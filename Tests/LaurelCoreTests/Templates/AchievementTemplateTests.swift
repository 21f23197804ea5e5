import Foundation
import LaurelCore
import Testing

/// The achievements a template generates: one per tier, named, identified and ruled as rules.md
/// ("Achievement templates") describes.
@Suite struct AchievementTemplateTests {
    static func template(
        id: String = "5f0c", activity: String = "act-1", type: TemplateType, tiers: [TemplateTier]
    ) -> AchievementTemplate {
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        return AchievementTemplate(id: id, name: "Mine", activityID: activity, type: type, tiers: tiers, createdAt: created, updatedAt: created)
    }

    static let fourTiers = [
        TemplateTier(tier: "bronze", target: 25), TemplateTier(tier: "silver", target: 50),
        TemplateTier(tier: "gold", target: 100), TemplateTier(tier: "platinum", target: 250),
    ]

    @Test func oneAchievementPerTierInTierOrder() {
        let achievements = Self.template(type: .volume, tiers: Self.fourTiers).achievements(activityName: "Pull-ups")
        #expect(achievements.map(\.target) == [25, 50, 100, 250])
        #expect(achievements.map(\.tier) == [.bronze, .silver, .gold, .platinum])
        #expect(achievements.allSatisfy { !$0.isSecret })
        #expect(achievements.allSatisfy { $0.category == "volume" })
    }

    @Test func aTierWithoutLabelIsNamedAfterTheActivityAndTheTier() {
        let tiers = [
            TemplateTier(tier: "bronze", target: 1), TemplateTier(tier: "silver", target: 2, label: "Getting there"),
            TemplateTier(tier: "elite", target: 3), TemplateTier(tier: "Gold", target: 4),
        ]
        let names = Self.template(type: .volume, tiers: tiers).achievements(activityName: "Pull-ups").map(\.name)
        #expect(names == ["Pull-ups Bronze", "Getting there", "Pull-ups Elite", "Pull-ups Gold"])
    }

    @Test func idsNameTheTemplateAndTheTarget() {
        let achievements = Self.template(id: "abc-123", type: .volume, tiers: Self.fourTiers).achievements(activityName: "Pull-ups")
        #expect(achievements.map(\.id) == ["tpl.abc-123.25", "tpl.abc-123.50", "tpl.abc-123.100", "tpl.abc-123.250"])
    }

    @Test func speedIdsAlsoNameTheWindow() {
        let template = Self.template(id: "t9", type: .speed, tiers: [
            TemplateTier(tier: "bronze", target: 50, windowMinutes: 10), TemplateTier(tier: "silver", target: 100, windowMinutes: 15),
        ])
        #expect(template.achievements(activityName: "Squats").map(\.id) == ["tpl.t9.50.w10", "tpl.t9.100.w15"])
    }

    @Test func aRenamedTierKeepsItsId() {
        let before = Self.template(id: "t", type: .volume, tiers: [TemplateTier(tier: "bronze", target: 10)])
        let after = Self.template(id: "t", type: .volume, tiers: [TemplateTier(tier: "First steps", target: 10, icon: "star")])
        #expect(before.achievements(activityName: "A").map(\.id) == after.achievements(activityName: "A").map(\.id))
    }

    @Test func anUnchangedTierKeepsItsIdAndAChangedTargetOrWindowGetsANewOne() {
        let before = Self.template(id: "t", type: .speed, tiers: [
            TemplateTier(tier: "bronze", target: 10, windowMinutes: 5), TemplateTier(tier: "silver", target: 20, windowMinutes: 5),
        ]).achievements(activityName: "A").map(\.id)
        let after = Self.template(id: "t", type: .speed, tiers: [
            TemplateTier(tier: "bronze", target: 10, label: "renamed", windowMinutes: 5),
            TemplateTier(tier: "silver", target: 20, windowMinutes: 6),
        ]).achievements(activityName: "A").map(\.id)
        #expect(before[0] == after[0], "a new label is not a new achievement")
        #expect(before[1] != after[1], "a new window is a new achievement")

        let retargeted = Self.template(id: "t", type: .speed, tiers: [TemplateTier(tier: "bronze", target: 11, windowMinutes: 5)])
        #expect(retargeted.achievements(activityName: "A").map(\.id) != [before[0]])
    }

    @Test func tiersNamedOtherwiseGetTheirTierByPositionCappedAtPlatinum() {
        let tiers = (1...6).map { TemplateTier(tier: "step \($0)", target: $0 * 10) }
        let achievements = Self.template(type: .daily, tiers: tiers).achievements(activityName: "Rowing")
        #expect(achievements.map(\.tier) == [.bronze, .silver, .gold, .platinum, .platinum, .platinum])
    }

    @Test func aTierNamedAfterATierKeepsThatTierWhereverItStands() {
        let tiers = [TemplateTier(tier: "Gold", target: 1), TemplateTier(tier: "next", target: 2), TemplateTier(tier: "bronze", target: 3)]
        let achievements = Self.template(type: .volume, tiers: tiers).achievements(activityName: "A")
        #expect(achievements.map(\.tier) == [.gold, .silver, .bronze])
    }

    @Test(arguments: [
        (TemplateType.volume, AchievementRule.activityTotal(activity: "act-1")),
        (.daily, .bestDay(activity: "act-1")),
        (.weekly, .bestWeek(activity: "act-1")),
        (.streak, .activityStreak(activity: "act-1")),
    ])
    func eachTypeMeasuresItsActivityWithItsRule(type: TemplateType, rule: AchievementRule) {
        let achievements = Self.template(type: type, tiers: Self.fourTiers).achievements(activityName: "Pull-ups")
        #expect(achievements.allSatisfy { $0.rule == rule })
        #expect(achievements.allSatisfy { $0.category == type.rawValue })
        #expect(achievements.allSatisfy { $0.description.contains("Pull-ups") })
    }

    @Test func speedTiersEachMeasureTheirOwnWindow() {
        let template = Self.template(type: .speed, tiers: [
            TemplateTier(tier: "bronze", target: 50, windowMinutes: 10), TemplateTier(tier: "silver", target: 100, windowMinutes: 15),
        ])
        let rules = template.achievements(activityName: "Squats").map(\.rule)
        #expect(rules == [.speed(activity: "act-1", windowMinutes: 10), .speed(activity: "act-1", windowMinutes: 15)])
    }

    @Test func descriptionsSayWhatUnlocksEachTier() {
        func description(_ type: TemplateType, _ tier: TemplateTier) -> String {
            Self.template(type: type, tiers: [tier]).achievements(activityName: "Pull-ups")[0].description
        }
        #expect(description(.volume, TemplateTier(tier: "bronze", target: 25)) == "Log 25 Pull-ups in total.")
        #expect(description(.daily, TemplateTier(tier: "bronze", target: 10)) == "Log 10 Pull-ups in one day.")
        #expect(description(.weekly, TemplateTier(tier: "bronze", target: 50)) == "Log 50 Pull-ups in one week.")
        #expect(description(.streak, TemplateTier(tier: "bronze", target: 3)) == "Log Pull-ups 3 days in a row.")
        #expect(description(.speed, TemplateTier(tier: "bronze", target: 50, windowMinutes: 10)) == "Log 50 Pull-ups within 10 minutes.")
    }

    @Test func iconsComeFromTheTierOrTheDefault() {
        let template = Self.template(type: .volume, tiers: [TemplateTier(tier: "bronze", target: 1, icon: "star"), TemplateTier(tier: "silver", target: 2)])
        let icons = template.achievements(activityName: "A").map(\.icon)
        #expect(icons[0] == "star")
        #expect(!icons[1].isEmpty)
    }

    @Test func achievementIdsLeadBackToTheirTemplate() {
        let id = AchievementTemplate.achievementID(template: "abc", tier: TemplateTier(tier: "Silver", target: 50))
        #expect(id == "tpl.abc.50")
        #expect(id.hasPrefix(AchievementTemplate.achievementIDPrefix(template: "abc")))
        #expect(AchievementTemplate.templateID(ofAchievement: id) == "abc")
        #expect(AchievementTemplate.templateID(ofAchievement: "tpl.abc.50.w10") == "abc")
        // Ids stored before tiers' names were left out of them still lead back.
        #expect(AchievementTemplate.templateID(ofAchievement: "tpl.abc.bronze.50.w10") == "abc")
        #expect(AchievementTemplate.templateID(ofAchievement: "first_exercise") == nil)
        #expect(AchievementTemplate.templateID(ofAchievement: "tpl.") == nil)
        #expect(AchievementTemplate.templateID(ofAchievement: "tpl.abc") == nil)
        // One template's prefix never matches another template whose id starts the same way.
        #expect(!"tpl.abcd.1".hasPrefix(AchievementTemplate.achievementIDPrefix(template: "abc")))
    }

    @Test func aNewTemplateIsActive() {
        let template = Self.template(type: .volume, tiers: Self.fourTiers)
        #expect(template.active)
        #expect(template.inactiveReason == nil)
        #expect(AchievementTemplate.activityDeleted == "activity_deleted")
        #expect(AchievementTemplate.deactivated == "deactivated")
    }
}
