import LaurelCore
import Testing

/// The default tiers of each template type, as rules.md lists them. (The presets are catalog data, see
/// `CatalogPresetTests`.)
@Suite struct TemplateDefaultsTests {
    static func targets(_ tiers: [TemplateTier]) -> [Int] { tiers.map(\.target) }

    @Test func volumeDefaultsAreLabelledNoviceToMaster() {
        let tiers = TemplateDefaults.tiers(for: .volume)
        #expect(Self.targets(tiers) == [50, 100, 500, 1000])
        #expect(tiers.map(\.label) == ["Novice", "Intermediate", "Advanced", "Master"])
        #expect(tiers.map(\.tier) == ["bronze", "silver", "gold", "platinum"])
        #expect(tiers.allSatisfy { $0.windowMinutes == nil })
    }

    @Test func dailyWeeklyAndStreakDefaults() {
        #expect(Self.targets(TemplateDefaults.tiers(for: .daily)) == [20, 50, 100])
        #expect(Self.targets(TemplateDefaults.tiers(for: .weekly)) == [100, 250, 500])
        #expect(Self.targets(TemplateDefaults.tiers(for: .streak)) == [3, 7, 30])
        for type in [TemplateType.daily, .weekly, .streak] {
            let tiers = TemplateDefaults.tiers(for: type)
            #expect(tiers.map(\.tier) == ["bronze", "silver", "gold"])
            #expect(tiers.allSatisfy { $0.label == nil && $0.windowMinutes == nil }, "\(type)")
        }
    }

    @Test func speedDefaultsAreFiftyInTenAndAHundredInFifteen() {
        let tiers = TemplateDefaults.tiers(for: .speed)
        #expect(tiers.map { [$0.target, $0.windowMinutes] } == [[50, 10], [100, 15]])
        #expect(tiers.map(\.tier) == ["bronze", "silver"])
    }

    @Test(arguments: TemplateType.allCases)
    func everyDefaultFollowsTheTierRules(type: TemplateType) {
        let tiers = TemplateDefaults.tiers(for: type)
        #expect((1...10).contains(tiers.count))
        #expect(zip(tiers, tiers.dropFirst()).allSatisfy { $0.target < $1.target })
        #expect(Set(tiers.map { $0.tier.lowercased() }).count == tiers.count)
        #expect(TemplateTierRules.problem(type: type, tiers: tiers) == nil)
    }
}
