import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// TEMPLATE.EXPORT and TEMPLATE.IMPORT between two accounts: activities travel by name (built-ins too), what
/// cannot be placed is skipped with a reason, and what is created is evaluated at once.
@Suite struct TemplateTransferTests {
    @Test func anExportImportsIntoAnotherAccountByActivityName() async throws {
        let exporter = try await LaurelTestDatabase.createUser("tpl-export")
        let importer = try await LaurelTestDatabase.createUser("tpl-import")
        try await TestServer.run { port in
            let from = try await PushRecorder.authenticated(port: port, token: exporter.token)
            try await Templates.startTrial(from)
            _ = try await Templates.activity(from, "Pull-ups")
            _ = try await Templates.activity(from, "Dips")
            let (_, volumeID) = try await Templates.created(
                from, Templates.create("Pull-ups", "volume", tiers: Templates.tiers([25, 50]), name: "Pull-up goals"))
            _ = try await Templates.created(from, Templates.create("squats", "daily", tiers: Templates.tiers([20, 40]), name: "Squat days"))
            _ = try await Templates.created(from, Templates.create("Dips", "streak", tiers: Templates.tiers([3]), name: "Dip streak"))
            let (_, speedID) = try await Templates.created(
                from, Templates.create("pushups", "speed", tiers: Templates.tiers([30], window: 5), name: "Pushup bursts"))
            Engine.ok(try await from.request("TEMPLATE.UPDATE", ["id": .string(speedID), "active": false]))

            let exported = Engine.ok(try await from.request("TEMPLATE.EXPORT"))
            #expect(exported["laurel_templates"] == 1)
            let entries = (exported["templates"]?.arrayValue ?? []).compactMap(\.objectValue)
            #expect(entries.map { $0["name"]?.stringValue } == ["Pull-up goals", "Squat days", "Dip streak", "Pushup bursts"])
            #expect(entries.map { $0["activity"]?.stringValue } == ["Pull-ups", "Squats", "Dips", "Pushups"],
                    "activities by name, custom and built-in alike")
            #expect(entries.map { $0["type"]?.stringValue } == ["volume", "daily", "streak", "speed"])
            #expect(entries.map { $0["active"] } == [true, true, true, false])
            #expect(entries[0]["tiers"] == Templates.tiers([25, 50]))
            #expect(entries[3]["tiers"] == Templates.tiers([30], window: 5))

            let one = Engine.ok(try await from.request("TEMPLATE.EXPORT", ["ids": [.string(volumeID)]]))
            #expect(one["templates"]?.arrayValue?.count == 1)
            #expect(one["templates"]?.arrayValue?.first?.objectValue?["name"] == "Pull-up goals")
            let exporterRows = try await PremiumRows.of(exporter)

            // The importer has a Pull-ups of their own (spelt differently) with 30 already logged, and no Dips.
            let to = try await PushRecorder.authenticated(port: port, token: importer.token)
            try await Templates.startTrial(to)
            let pullUps = try await Templates.activity(to, "PULL-UPS")
            Engine.ok(try await to.request("LOG", Engine.log("pull-ups", amount: 30, at: TestClock.noon(daysAgo: 3))))

            var document = exported
            document["templates"] = .array((exported["templates"]?.arrayValue ?? []) + [
                ["name": "Speed without window", "activity": "squats", "type": "speed", "tiers": Templates.tiers([10])],
                ["name": "Wrong type", "activity": "squats", "type": "hourly", "tiers": Templates.tiers([10])],
                ["name": "Window on volume", "activity": "squats", "type": "volume", "tiers": Templates.tiers([10], window: 5)],
                ["name": "Falling tiers", "activity": "squats", "type": "volume", "tiers": Templates.tiers([10, 5])],
            ])
            let imported = Engine.ok(try await to.request("TEMPLATE.IMPORT", ["document": .object(document)]))
            let created = (imported["created"]?.arrayValue ?? []).compactMap(\.objectValue)
            #expect(created.map { $0["name"]?.stringValue } == ["Pull-up goals", "Squat days", "Pushup bursts"])
            #expect(created.map { $0["activity"]?.stringValue } == [pullUps, "squats", "pushups"], "mapped onto the importer's activities")
            #expect(created.map { $0["active"] } == [true, true, false])
            #expect(created.first?["tiers"] == Templates.tiers([25, 50]))

            let skipped = Dictionary(
                (imported["skipped"]?.arrayValue ?? []).compactMap(\.objectValue).map {
                    ($0["name"]?.stringValue ?? "", $0["reason"]?.stringValue ?? "")
                }, uniquingKeysWith: { first, _ in first })
            #expect(Set(skipped.keys) == ["Dip streak", "Speed without window", "Wrong type", "Window on volume", "Falling tiers"], "\(skipped)")
            #expect(skipped["Dip streak"]?.contains("Dips") == true, "the reason names the missing activity: \(skipped)")
            #expect(skipped["Speed without window"]?.contains("window_minutes") == true, "\(skipped)")
            #expect(skipped["Window on volume"]?.contains("window_minutes") == true, "\(skipped)")
            #expect(skipped["Wrong type"]?.contains("type") == true, "\(skipped)")
            #expect(skipped["Falling tiers"]?.contains("target") == true, "\(skipped)")

            // Created templates are evaluated at once: the 30 pull-ups already logged earn bronze (25).
            let importedVolume = try #require(created.first)
            let importedID = try #require(importedVolume["id"]?.stringValue)
            let achievements = Templates.achievements(importedVolume)
            #expect(achievements.map { $0["unlocked_at"] != nil } == [true, false])
            #expect(achievements.map { $0["progress"]?.intValue } == [25, 30])
            let pushes = try await to.wait { !Templates.unlocks($0, template: importedID).isEmpty }
            #expect(Templates.unlocks(pushes, template: importedID).map { $0["target"]?.intValue } == [25])

            #expect(Templates.list(try await to.request("TEMPLATES")).count == 3)
            #expect(try await PremiumRows.of(exporter) == exporterRows, "exporting changes nothing for the exporter")
        }
    }

    @Test func anExportOfAnotherUsersTemplateIsNotFound() async throws {
        let owner = try await LaurelTestDatabase.createUser("tpl-owner")
        let other = try await LaurelTestDatabase.createUser("tpl-other")
        try await TestServer.run { port in
            let mine = try await PushRecorder.authenticated(port: port, token: owner.token)
            try await Templates.startTrial(mine)
            let (_, id) = try await Templates.created(mine, Templates.create("squats", "volume"))
            let theirs = try await PushRecorder.authenticated(port: port, token: other.token)
            let answer = try await theirs.request("TEMPLATE.EXPORT", ["ids": [.string(id)]])
            #expect(answer.errorCode == "not_found" && answer.errorField == "ids[0]", "\(answer)")
            #expect(Engine.ok(try await theirs.request("TEMPLATE.EXPORT"))["templates"] == [])
        }
    }
}
