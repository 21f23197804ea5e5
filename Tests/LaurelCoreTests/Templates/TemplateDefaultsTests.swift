import LaurelCore
import Testing

/// The default tiers of each template type and the presets, as rules.md lists them.
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

    @Test func thePresetsOfTheRules() throws {
        let expected: [(String, TemplateType, [Int])] = [
            ("starter_volume", .volume, [25, 50, 100, 250]),
            ("habit_builder", .streak, [3, 7, 14, 30]),
            ("daily_grind", .daily, [10, 25, 50]),
            ("weekly_warrior", .weekly, [50, 150, 300]),
        ]
        for (id, type, targets) in expected {
            let preset = try #require(TemplateDefaults.preset(id), "preset \(id)")
            #expect(preset.id == id)
            #expect(preset.type == type, "\(id)")
            #expect(Self.targets(preset.tiers) == targets, "\(id)")
            #expect(!preset.name.isEmpty && !preset.description.isEmpty, "\(id)")
            #expect(TemplateTierRules.problem(type: preset.type, tiers: preset.tiers) == nil, "\(id)")
            #expect(TemplateDefaults.presets.contains(preset))
        }
        #expect(Set(TemplateDefaults.presets.map(\.id)).count == TemplateDefaults.presets.count, "preset ids are unique")
    }

    @Test func anUnknownPresetIsNotFound() {
        #expect(TemplateDefaults.preset("mega_volume") == nil)
        #expect(TemplateDefaults.preset("") == nil)
        #expect(TemplateDefaults.preset("Starter_Volume") == nil, "preset ids are exact")
    }
}
