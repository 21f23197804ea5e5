import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// PRESETS, templates made from a preset, `"*"` for every live activity, and the default tiers and names of
/// each type as the server answers them.
@Suite struct TemplatePresetTests {
    @Test func presetsListAtLeastTheFourOfTheRules() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-presets")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            let answer = try await app.request("PRESETS")
            var presets: [String: JSONObject] = [:]
            for preset in Templates.list(answer) { presets[preset["id"]?.stringValue ?? ""] = preset }
            let expected: [(String, String, [Int])] = [
                ("starter_volume", "volume", [25, 50, 100, 250]),
                ("habit_builder", "streak", [3, 7, 14, 30]),
                ("daily_grind", "daily", [10, 25, 50]),
                ("weekly_warrior", "weekly", [50, 150, 300]),
            ]
            for (id, type, targets) in expected {
                let preset = try #require(presets[id], "preset \(id) in \(answer.raw)")
                #expect(preset["type"]?.stringValue == type, "\(id)")
                #expect(Self.targets(preset["tiers"]) == targets, "\(id)")
                #expect(preset["name"]?.stringValue?.isEmpty == false && preset["description"]?.stringValue?.isEmpty == false)
            }
        }
    }

    @Test func aTemplateFromAPresetTakesItsTypeAndTiers() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-from-preset")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            let (habit, _) = try await Templates.created(app, ["activity": "squats", "preset": "habit_builder"])
            #expect(habit["type"] == "streak")
            #expect(Self.targets(habit["tiers"]) == [3, 7, 14, 30])
            #expect(habit["activity"] == "squats")
            #expect(Templates.achievements(habit).map { $0["category"]?.stringValue } == Array(repeating: "streak", count: 4))

            let (weeks, _) = try await Templates.created(
                app, ["activity": "Pushups", "preset": "weekly_warrior", "type": "weekly", "name": "Big weeks"])
            #expect(weeks["name"] == "Big weeks")
            #expect(weeks["activity"] == "pushups", "a built-in may be named by its name too")
            #expect(Self.targets(weeks["tiers"]) == [50, 150, 300])
        }
    }

    @Test func starMakesOneTemplateForEachLiveActivity() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-star")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            let rowing = try await Templates.activity(app, "Rowing")
            let climbing = try await Templates.activity(app, "Climbing")
            let skipping = try await Templates.activity(app, "Skipping")
            Engine.ok(try await app.request("ACTIVITY.DELETE", ["id": .string(climbing)]))

            let answer = try await app.request("TEMPLATE.CREATE", ["activity": "*", "type": "daily"])
            let created = Templates.list(answer)
            #expect(created.count == 6, "\(answer.raw.prefix(400))")
            #expect(Set(created.compactMap { $0["activity"]?.stringValue }) == ["squats", "pushups", "lunges", "plank", rowing, skipping])
            #expect(Set(created.compactMap { $0["name"]?.stringValue }) == [
                "Squats Daily", "Pushups Daily", "Lunges Daily", "Plank Daily", "Rowing Daily", "Skipping Daily",
            ])
            #expect(created.allSatisfy { Self.targets($0["tiers"]) == [20, 50, 100] })
            #expect(Set(created.compactMap { $0["id"]?.stringValue }).count == 6)
            #expect(Templates.list(try await app.request("TEMPLATES")).count == 6)
            #expect(Templates.list(try await app.request("TEMPLATES", ["activity": "Rowing"])).count == 1)
        }
    }

    @Test func eachTypeHasItsDefaultTiersAndNames() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-defaults")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            let pullUps = try await Templates.activity(app, "Pull-ups")
            let expected: [(type: String, targets: [Int], names: [String])] = [
                ("volume", [50, 100, 500, 1000], ["Novice", "Intermediate", "Advanced", "Master"]),
                ("daily", [20, 50, 100], ["Pull-ups Bronze", "Pull-ups Silver", "Pull-ups Gold"]),
                ("weekly", [100, 250, 500], ["Pull-ups Bronze", "Pull-ups Silver", "Pull-ups Gold"]),
                ("streak", [3, 7, 30], ["Pull-ups Bronze", "Pull-ups Silver", "Pull-ups Gold"]),
                ("speed", [50, 100], ["Pull-ups Bronze", "Pull-ups Silver"]),
            ]
            for (type, targets, names) in expected {
                let (template, id) = try await Templates.created(app, ["activity": "Pull-ups", "type": .string(type)])
                #expect(template["name"]?.stringValue == "Pull-ups \(type.prefix(1).uppercased())\(type.dropFirst())")
                #expect(Self.targets(template["tiers"]) == targets, "\(type)")
                let achievements = Templates.achievements(template)
                #expect(achievements.map { $0["name"]?.stringValue } == names, "\(type)")
                #expect(achievements.map { $0["tier"]?.stringValue } == Array(Templates.tierNames.prefix(targets.count)), "\(type)")
                #expect(achievements.map { $0["target"]?.intValue } == targets, "\(type)")
                for achievement in achievements {
                    #expect(achievement["category"]?.stringValue == type)
                    #expect(achievement["source"] == "template")
                    #expect(achievement["template_id"]?.stringValue == id)
                    #expect(achievement["activity"]?.stringValue == pullUps)
                    #expect(achievement["progress"] == 0 && achievement["hidden"] == false)
                }
                if type == "volume" {
                    #expect(template["tiers"]?.arrayValue?.map { $0.objectValue?["label"]?.stringValue } == names)
                }
                if type == "speed" {
                    #expect(template["tiers"]?.arrayValue?.map { $0.objectValue?["window_minutes"]?.intValue } == [10, 15])
                    #expect(achievements.map { $0["id"]?.stringValue } == ["tpl.\(id).50.w10", "tpl.\(id).100.w15"])
                }
            }
        }
    }

    /// An achievement's `unit` says what its target and progress count: the activity's unit for amounts, days
    /// for a streak (as the built-in `streak_7` says).
    @Test func templateAchievementsCountInTheUnitOfWhatTheyMeasure() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-units")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            let builtin = try await Templates.achievement(app, "streak_7")
            #expect(builtin["unit"] == "days")
            let expected = ["volume": "seconds", "daily": "seconds", "weekly": "seconds", "speed": "seconds", "streak": "days"]
            for (type, unit) in expected.sorted(by: { $0.key < $1.key }) {
                let (template, _) = try await Templates.created(app, ["activity": "plank", "type": .string(type)])
                let units = Set(Templates.achievements(template).compactMap { $0["unit"]?.stringValue })
                #expect(units == [unit], "\(type) tiers of Plank (seconds) count \(unit): \(units)")
            }
        }
    }

    static func targets(_ tiers: JSONValue?) -> [Int] {
        (tiers?.arrayValue ?? []).compactMap { $0.objectValue?["target"]?.intValue }
    }
}
