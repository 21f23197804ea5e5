import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// TEMPLATE.UPDATE and TEMPLATE.DELETE: what editing, switching off and on, and deleting a template do to its
/// achievements and their unlocks (rules.md, "Achievement templates").
@Suite struct TemplateUpdateTests {
    @Test func renameRetierDeactivateReactivateAndDelete() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-update")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            _ = try await Templates.activity(app, "Burpees")
            let (_, id) = try await Templates.created(app, Templates.create("Burpees", "volume", tiers: Templates.tiers([10, 20, 40])))
            let (bronze, silver, gold) = ("tpl.\(id).10", "tpl.\(id).20", "tpl.\(id).40")
            Engine.ok(try await app.request("LOG", Engine.log("Burpees", amount: 25, at: TestClock.noon(daysAgo: 1))))
            try await app.wait { Templates.unlocks($0, template: id).count == 2 }
            let earned = Self.unlockDates(try #require(try await Templates.listed(app, id)))
            #expect(Set(earned.keys) == [bronze, silver])

            // A new name changes nothing else.
            let renamed = Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "name": "Burpee ladder"]))
            #expect(renamed["name"] == "Burpee ladder")
            #expect(renamed["tiers"] == Templates.tiers([10, 20, 40]))
            #expect(Self.unlockDates(renamed) == earned)
            #expect(try await Templates.listed(app, id)?["name"] == "Burpee ladder")

            // New tiers: bronze keeps its unlock and date, silver's new target is a new, locked achievement, and the
            // old silver unlock stays in the account's history without being listed.
            let silverNow = "tpl.\(id).30"
            let retiered = Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "tiers": Templates.tiers([10, 30, 40])]))
            #expect(Templates.achievements(retiered).map { $0["id"]?.stringValue } == [bronze, silverNow, gold])
            #expect(Self.unlockDates(retiered) == [bronze: try #require(earned[bronze])])
            #expect(Templates.achievements(retiered).map { $0["progress"]?.intValue } == [10, 25, 25])
            let everything = Engine.ok(try await app.request("ACHIEVEMENTS", ["include_hidden": true]))
            #expect(Engine.byID(everything)[silver] == nil)
            #expect(try await app.request("ACHIEVEMENT", ["id": .string(silver)]).errorCode == "not_found")
            #expect(try await Self.exportedUnlocks(app).contains(silver), "an unlock of a changed tier stays in the history")
            try await app.settle()
            #expect(Templates.unlocks(app.pushes, template: id).count == 2, "editing re-earns nothing")

            // Switched off: hidden, and not evaluated even when a log reaches the new silver.
            let off = Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "active": false]))
            #expect(off["active"] == false && off["inactive_reason"] == "deactivated")
            #expect(Templates.achievements(off).allSatisfy { $0["hidden"] == true })
            #expect(Engine.ok(try await app.request("ACHIEVEMENTS", ["source": "template"]))["summary"]?.objectValue?["total"] == 0)
            let hidden = Engine.ok(try await app.request("ACHIEVEMENTS", ["source": "template", "include_hidden": true]))
            #expect(hidden["summary"]?.objectValue?["total"] == 3)
            let logged = Engine.ok(try await app.request("LOG", Engine.log("Burpees", amount: 10, at: TestClock.noon(daysAgo: 1, minute: 5))))
            #expect(!Engine.ids(logged["unlocked"]).contains(silverNow))
            #expect(try await PremiumRows.unlockCount(of: user, prefix: "tpl.\(id).") == 2)
            try await app.settle()
            #expect(Templates.unlocks(app.pushes, template: id).count == 2)

            // Switched on again: evaluated at once, the UNLOCK pushed with the answer.
            let on = Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "active": true]))
            #expect(on["active"] == true && on["inactive_reason"] == nil)
            #expect(Set(Self.unlockDates(on).keys) == [bronze, silverNow])
            let pushes = try await app.wait { Templates.unlocks($0, template: id).count == 3 }
            #expect(Templates.unlocks(pushes, template: id).last?["id"]?.stringValue == silverNow)

            // A changed tier that is already met unlocks with the edit.
            let goldNow = "tpl.\(id).35"
            let lowered = Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "tiers": Templates.tiers([10, 30, 35])]))
            #expect(Set(Self.unlockDates(lowered).keys) == [bronze, silverNow, goldNow])
            let afterEdit = try await app.wait { Templates.unlocks($0, template: id).count == 4 }
            #expect(Templates.unlocks(afterEdit, template: id).last?["id"]?.stringValue == goldNow)

            // Deleted: the template, its achievements and their unlocks are gone.
            let deleted = Engine.ok(try await app.request("TEMPLATE.DELETE", ["id": .string(id)]))
            #expect(deleted == ["id": .string(id), "removed_achievements": 3])
            #expect(try await PremiumRows.unlockCount(of: user, prefix: "tpl.\(id).") == 0)
            #expect(try await Templates.listed(app, id) == nil)
            #expect(try await app.request("ACHIEVEMENT", ["id": .string(bronze)]).errorCode == "not_found")
            let remaining = Engine.ok(try await app.request("ACHIEVEMENTS", ["include_hidden": true]))
            #expect(Engine.byID(remaining).keys.allSatisfy { !$0.hasPrefix("tpl.") })
            #expect(try await Self.exportedUnlocks(app).allSatisfy { !$0.hasPrefix("tpl.\(id).") })
            #expect(try await app.request("TEMPLATE.DELETE", ["id": .string(id)]).errorCode == "not_found")
        }
    }

    @Test func restoringAnActivityReactivatesOnlyTheTemplatesItsDeletionDeactivated() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-restore")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            let rowing = try await Templates.activity(app, "Rowing")
            let (_, kept) = try await Templates.created(app, Templates.create("Rowing", "volume", tiers: Templates.tiers([10])))
            let (_, switchedOff) = try await Templates.created(app, Templates.create("Rowing", "daily", tiers: Templates.tiers([10])))
            Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(switchedOff), "active": false]))

            Engine.ok(try await app.request("ACTIVITY.DELETE", ["id": .string(rowing)]))
            #expect(try await Templates.listed(app, kept)?["inactive_reason"] == "activity_deleted")
            #expect(try await Templates.listed(app, switchedOff)?["inactive_reason"] == "deactivated")

            Engine.ok(try await app.request("ACTIVITY.RESTORE", ["id": .string(rowing)]))
            let logged = Engine.ok(try await app.request("LOG", Engine.log("Rowing", amount: 12)))
            #expect(Engine.ids(logged["unlocked"]).filter { $0.hasPrefix("tpl.") } == ["tpl.\(kept).10"])
            let restored = try #require(try await Templates.listed(app, kept))
            #expect(restored["active"] == true && restored["inactive_reason"] == nil)
            let stillOff = try #require(try await Templates.listed(app, switchedOff))
            #expect(stillOff["active"] == false && stillOff["inactive_reason"] == "deactivated")
            #expect(Templates.achievements(stillOff).allSatisfy { $0["unlocked_at"] == nil && $0["hidden"] == true })
        }
    }

    /// The unlock date of each unlocked achievement of a TEMPLATE object.
    static func unlockDates(_ template: JSONObject) -> [String: String] {
        var dates: [String: String] = [:]
        for achievement in Templates.achievements(template) {
            if let id = achievement["id"]?.stringValue, let at = achievement["unlocked_at"]?.stringValue { dates[id] = at }
        }
        return dates
    }

    /// The achievement ids of the unlocks in ACCOUNT.EXPORT.
    static func exportedUnlocks(_ app: PushRecorder) async throws -> [String] {
        let document = Engine.ok(try await app.request("ACCOUNT.EXPORT"))
        return (document["unlocks"]?.arrayValue ?? []).compactMap { $0.objectValue?["achievement"]?.stringValue }
    }
}
