import LaurelCore
import Testing

/// `window_minutes` is required for `speed` tiers and refused for every other type (rules.md).
@Suite struct TemplateTierRulesTests {
    static let plain = [TemplateTier(tier: "bronze", target: 10), TemplateTier(tier: "silver", target: 20)]
    static let windowed = [
        TemplateTier(tier: "bronze", target: 10, windowMinutes: 5), TemplateTier(tier: "silver", target: 20, windowMinutes: 1440),
    ]

    @Test func speedTiersWithWindowsFit() {
        #expect(TemplateTierRules.problem(type: .speed, tiers: Self.windowed) == nil)
    }

    @Test(arguments: [TemplateType.volume, .daily, .weekly, .streak])
    func otherTypesFitWithoutWindows(type: TemplateType) {
        #expect(TemplateTierRules.problem(type: type, tiers: Self.plain) == nil)
    }

    @Test func aSpeedTierWithoutWindowIsNamed() throws {
        let tiers = [TemplateTier(tier: "bronze", target: 10, windowMinutes: 5), TemplateTier(tier: "silver", target: 20)]
        let problem = try #require(TemplateTierRules.problem(type: .speed, tiers: tiers))
        #expect(problem.field == "tiers[1].window_minutes")
        #expect(problem.message.contains("window_minutes"))
    }

    @Test(arguments: [TemplateType.volume, .daily, .weekly, .streak])
    func aWindowOnAnotherTypeIsNamed(type: TemplateType) throws {
        let tiers = [
            TemplateTier(tier: "bronze", target: 10), TemplateTier(tier: "silver", target: 20),
            TemplateTier(tier: "gold", target: 30, windowMinutes: 3),
        ]
        let problem = try #require(TemplateTierRules.problem(type: type, tiers: tiers))
        #expect(problem.field == "tiers[2].window_minutes")
        #expect(problem.message.contains("window_minutes"))
    }

    @Test func theFirstOffendingTierIsTheOneNamed() throws {
        let problem = try #require(TemplateTierRules.problem(type: .volume, tiers: Self.windowed))
        #expect(problem.field == "tiers[0].window_minutes")
        let missing = try #require(TemplateTierRules.problem(type: .speed, tiers: Self.plain))
        #expect(missing.field == "tiers[0].window_minutes")
    }

    @Test func noTiersHaveNoProblemOfType() {
        // The count (1 to 10) is checked where the request is read; this check only pairs windows with types.
        for type in TemplateType.allCases {
            #expect(TemplateTierRules.problem(type: type, tiers: []) == nil)
        }
    }
}
