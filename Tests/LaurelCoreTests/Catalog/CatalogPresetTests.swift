import LaurelCore
import LaurelJSON
import Testing

/// Template presets are catalog data: the shipped catalogs list the four presets of rules.md, PRESETS answers
/// them unchanged, and a preset whose tiers break the template rules is refused naming its field.
@Suite struct CatalogPresetTests {
    /// What PRESETS answered when the presets were written in code; the catalogs must keep it byte for byte.
    static let presetsAnswer = #"[{"id":"starter_volume","name":"Starter volume","type":"volume","tiers":[{"tier":"bronze","target":25},{"tier":"silver","target":50},{"tier":"gold","target":100},{"tier":"platinum","target":250}],"description":"Milestones for a new exercise: 25, 50, 100 and 250 in total."},{"id":"habit_builder","name":"Habit builder","type":"streak","tiers":[{"tier":"bronze","target":3},{"tier":"silver","target":7},{"tier":"gold","target":14},{"tier":"platinum","target":30}],"description":"Days in a row with the activity: 3, 7, 14 and 30."},{"id":"daily_grind","name":"Daily grind","type":"daily","tiers":[{"tier":"bronze","target":10},{"tier":"silver","target":25},{"tier":"gold","target":50}],"description":"A big day: 10, 25 and 50 in one day."},{"id":"weekly_warrior","name":"Weekly warrior","type":"weekly","tiers":[{"tier":"bronze","target":50},{"tier":"silver","target":150},{"tier":"gold","target":300}],"description":"A big week: 50, 150 and 300 in one week."}]"#

    static func document(presets: [String]) -> [UInt8] {
        Array(#"""
        {"laurel_catalog": 1, "name": "test", "activities": [], "presets": [\#(presets.joined(separator: ", "))]}
        """#.utf8)
    }

    static func preset(id: String = "p", type: String = "volume", tiers: String = #"[{"tier": "bronze", "target": 5}]"#) -> String {
        #"{"id": "\#(id)", "name": "P", "type": "\#(type)", "tiers": \#(tiers), "description": "D"}"#
    }

    static func error(_ presets: [String]) -> CatalogFileError? {
        CatalogFileErrorTests.error(document(presets: presets))
    }

    @Test func theShippedCatalogsListThePresetsOfTheRules() throws {
        let expected: [(String, TemplateType, [Int])] = [
            ("starter_volume", .volume, [25, 50, 100, 250]),
            ("habit_builder", .streak, [3, 7, 14, 30]),
            ("daily_grind", .daily, [10, 25, 50]),
            ("weekly_warrior", .weekly, [50, 150, 300]),
        ]
        for catalog in [try ShippedCatalogFiles.standfit(), try ShippedCatalogFiles.mindful()] {
            #expect(catalog.presets.map(\.id) == expected.map(\.0), "\(catalog.name)")
            for (id, type, targets) in expected {
                let preset = try #require(catalog.preset(id), "preset \(id)")
                #expect(preset.type == type && preset.tiers.map(\.target) == targets, "\(id)")
                #expect(!preset.name.isEmpty && !preset.description.isEmpty)
                #expect(TemplateTierRules.listProblem(type: preset.type, tiers: preset.tiers) == nil)
            }
        }
    }

    @Test func presetsAnswerTheSameBytesAsBefore() throws {
        for catalog in [try ShippedCatalogFiles.standfit(), try ShippedCatalogFiles.mindful()] {
            #expect(JSONValue.array(catalog.presets.map { .object($0.json) }).serialized() == Self.presetsAnswer, "\(catalog.name)")
        }
    }

    @Test func presetIDsAreExact() throws {
        let catalog = try ShippedCatalogFiles.standfit()
        #expect(catalog.preset("mega_volume") == nil)
        #expect(catalog.preset("") == nil)
        #expect(catalog.preset("Starter_Volume") == nil)
    }

    @Test func aCatalogWithoutPresetsHasNone() throws {
        #expect(try CatalogFile.decode(Array(#"{"laurel_catalog": 1, "name": "t", "activities": []}"#.utf8)).presets.isEmpty)
    }

    @Test func aValidPresetKeepsLabelsIconsAndWindows() throws {
        let tiers = #"[{"tier": "bronze", "target": 50, "window_minutes": 10, "label": "Quick", "icon": "bolt"}, {"tier": "silver", "target": 100, "window_minutes": 15}]"#
        let catalog = try CatalogFile.decode(Self.document(presets: [Self.preset(type: "speed", tiers: tiers)]))
        #expect(catalog.presets == [TemplatePreset(
            id: "p", name: "P", type: .speed,
            tiers: [
                TemplateTier(tier: "bronze", target: 50, label: "Quick", icon: "bolt", windowMinutes: 10),
                TemplateTier(tier: "silver", target: 100, windowMinutes: 15),
            ],
            description: "D")])
    }

    @Test(arguments: [
        (CatalogPresetTests.preset(type: "huge"), "presets[1].type"),
        (#"{"name": "P", "type": "volume", "tiers": [{"tier": "bronze", "target": 5}], "description": "D"}"#, "presets[1].id"),
        (#"{"id": "q", "type": "volume", "tiers": [{"tier": "bronze", "target": 5}], "description": "D"}"#, "presets[1].name"),
        (#"{"id": "q", "name": "P", "type": "volume", "tiers": [{"tier": "bronze", "target": 5}]}"#, "presets[1].description"),
        (CatalogPresetTests.preset(id: "q", tiers: "[]"), "presets[1].tiers"),
        (CatalogPresetTests.preset(id: "q", tiers: "{}"), "presets[1].tiers"),
        (CatalogPresetTests.preset(id: "q", tiers: "[" + (1...11).map { #"{"tier": "t\#($0)", "target": \#($0)}"# }.joined(separator: ", ") + "]"), "presets[1].tiers"),
        (CatalogPresetTests.preset(id: "q", tiers: #"[{"tier": "bronze"}]"#), "presets[1].tiers[0]"),
        (CatalogPresetTests.preset(id: "q", tiers: #"[{"tier": "bronze", "target": 0}]"#), "presets[1].tiers[0].target"),
        (CatalogPresetTests.preset(id: "q", tiers: #"[{"tier": "bronze", "target": 1000000001}]"#), "presets[1].tiers[0].target"),
        (CatalogPresetTests.preset(id: "q", tiers: #"[{"tier": "bronze", "target": 5}, {"tier": "silver", "target": 5}]"#), "presets[1].tiers[1].target"),
        (CatalogPresetTests.preset(id: "q", tiers: #"[{"tier": "bronze", "target": 5}, {"tier": "Bronze", "target": 6}]"#), "presets[1].tiers[1].tier"),
        (CatalogPresetTests.preset(id: "q", tiers: #"[{"tier": "", "target": 5}]"#), "presets[1].tiers[0].tier"),
        (CatalogPresetTests.preset(id: "q", tiers: #"[{"tier": "bronze", "target": 5, "window_minutes": 10}]"#), "presets[1].tiers[0].window_minutes"),
        (CatalogPresetTests.preset(id: "q", type: "speed", tiers: #"[{"tier": "bronze", "target": 5}]"#), "presets[1].tiers[0].window_minutes"),
        (CatalogPresetTests.preset(id: "q", type: "speed", tiers: #"[{"tier": "bronze", "target": 5, "window_minutes": 1441}]"#), "presets[1].tiers[0].window_minutes"),
        (CatalogPresetTests.preset(id: "q", tiers: #"[{"tier": "bronze", "target": 5, "label": ""}]"#), "presets[1].tiers[0].label"),
        (CatalogPresetTests.preset(id: "p"), "presets[1].id"),
        (#""starter_volume""#, "presets[1]"),
    ])
    func aBadPresetNamesItsField(preset: String, field: String) {
        let error = Self.error([Self.preset(), preset])
        #expect(error?.field == field, "\(preset): \(error?.description ?? "decoded")")
    }
}
