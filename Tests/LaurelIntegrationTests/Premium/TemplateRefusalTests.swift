import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// Every refused template request leaves the user's templates, unlocks and pushes as they were: malformed
/// tiers, unknown names, a user without premium, and the limit of 100 templates.
@Suite struct TemplateRefusalTests {
    @Test func invalidTemplatesAreRefusedAndChangeNothing() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-invalid")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            // Enough logged that any template created by mistake would unlock, store and push at once.
            Engine.ok(try await app.request("LOG", Engine.log("squats", amount: 500, at: TestClock.noon(daysAgo: 1))))
            let gone = try await Templates.activity(app, "Gone")
            Engine.ok(try await app.request("ACTIVITY.DELETE", ["id": .string(gone)]))
            let (_, id) = try await Templates.created(app, Templates.create("pushups", "volume", tiers: Templates.tiers([1000])))
            try await app.settle()

            func create(_ type: String, _ tiers: JSONValue) -> JSONObject { Templates.create("squats", type, tiers: tiers) }
            let refusals: [TemplateRefusal] = [
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("hourly", Templates.tiers([10])), code: "invalid_argument",
                                field: "type", because: "an unknown type"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: ["activity": "squats", "tiers": Templates.tiers([10])],
                                code: "invalid_argument", field: "type", because: "no type and no preset"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", Templates.tiers([10, 10])), code: "invalid_argument",
                                field: "tiers[1].target", because: "equal targets"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", Templates.tiers([10, 20, 15])), code: "invalid_argument",
                                field: "tiers[2].target", because: "a falling target"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", Templates.tiers(Array(1...11))), code: "invalid_argument",
                                field: "tiers", because: "11 tiers"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", []), code: "invalid_argument",
                                field: "tiers", because: "no tiers"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", [Templates.tier("bronze", 10), Templates.tier("Bronze", 20)]),
                                code: "invalid_argument", field: "tiers[1].tier", because: "a repeated tier name"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", Templates.tiers([0])), code: "invalid_argument",
                                field: "tiers[0].target", because: "a zero target"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", Templates.tiers([1_000_000_001])), code: "invalid_argument",
                                field: "tiers[0].target", because: "a target over 10^9"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("daily", [Templates.tier("bronze", 10), Templates.tier("silver", 20, window: 5)]),
                                code: "invalid_argument", field: "tiers[1].window_minutes", because: "a window on a daily tier"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", Templates.tiers([10], window: 5)),
                                code: "invalid_argument", field: "tiers[0].window_minutes", because: "a window on a volume tier"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("speed", Templates.tiers([10])),
                                code: "invalid_argument", field: "tiers[0].window_minutes", because: "a speed tier without window"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("speed", Templates.tiers([10], window: 1441)),
                                code: "invalid_argument", field: "tiers[0].window_minutes", because: "a window over a day"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: ["activity": "squats", "preset": "mega_volume"], code: "not_found",
                                field: "preset", because: "an unknown preset"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: ["activity": "squats", "type": "daily", "preset": "starter_volume"],
                                code: "invalid_argument", field: "type", because: "a type other than the preset's"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", Templates.tiers([10])).with("activity", "Handstands"),
                                code: "not_found", field: "activity", because: "an unknown activity"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", Templates.tiers([10])).with("activity", .string(gone)),
                                code: "not_found", field: "activity", because: "a deleted activity"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: create("volume", Templates.tiers([10])).with("goal", 10),
                                code: "invalid_argument", field: "goal", because: "an unknown field"),
                TemplateRefusal(verb: "TEMPLATE.UPDATE", argument: ["id": .string(id), "tiers": Templates.tiers([10], window: 5)],
                                code: "invalid_argument", field: "tiers[0].window_minutes", because: "a window on the volume template's tier"),
                TemplateRefusal(verb: "TEMPLATE.UPDATE", argument: ["id": .string(id), "tiers": Templates.tiers([20, 10])],
                                code: "invalid_argument", field: "tiers[1].target", because: "falling targets on update"),
                TemplateRefusal(verb: "TEMPLATE.UPDATE", argument: ["id": .string(id), "name": "Better", "tiers": Templates.tiers(Array(1...11))],
                                code: "invalid_argument", field: "tiers", because: "11 tiers on update, with a valid rename"),
                TemplateRefusal(verb: "TEMPLATE.UPDATE", argument: ["id": .string(UUID().uuidString.lowercased()), "name": "Other"],
                                code: "not_found", field: "id", because: "an unknown template"),
                TemplateRefusal(verb: "TEMPLATE.DELETE", argument: ["id": .string(UUID().uuidString.lowercased())],
                                code: "not_found", field: "id", because: "deleting an unknown template"),
                TemplateRefusal(verb: "TEMPLATE.IMPORT", argument: ["document": ["laurel_templates": 2, "templates": []]],
                                code: "invalid_argument", field: "document.laurel_templates", because: "an unknown document version"),
            ]
            try await app.expectRefusals(refusals, of: user)
        }
    }

    @Test func withoutPremiumChangingTemplatesIsRefusedAndChangesNothing() async throws {
        let free = try await LaurelTestDatabase.createUser("tpl-free")
        let lapsed = try await LaurelTestDatabase.createUser("tpl-was-premium")
        try await TestServer.run { port in
            // A user who never had premium: nothing to update or delete, and creating or importing is paywalled.
            let newcomer = try await PushRecorder.authenticated(port: port, token: free.token)
            Engine.ok(try await newcomer.request("LOG", Engine.log("squats", amount: 500, at: TestClock.noon(daysAgo: 1))))
            try await newcomer.settle()
            let paywall: JSONObject = ["feature": "templates", "trial_available": true]
            let document: JSONObject = [
                "laurel_templates": 1,
                "templates": [["name": "Squats", "activity": "squats", "type": "volume", "tiers": Templates.tiers([5])]],
            ]
            try await newcomer.expectRefusals([
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: Templates.create("squats", "volume", tiers: Templates.tiers([5])),
                                code: "premium_required", details: paywall, because: "creating without premium"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: ["activity": "*", "type": "volume"],
                                code: "premium_required", details: paywall, because: "creating for every activity without premium"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: ["activity": "squats", "preset": "starter_volume"],
                                code: "premium_required", details: paywall, because: "a preset without premium"),
                TemplateRefusal(verb: "TEMPLATE.IMPORT", argument: ["document": .object(document)],
                                code: "premium_required", details: paywall, because: "importing without premium"),
            ], of: free)
            #expect(Templates.list(try await newcomer.request("TEMPLATES")).isEmpty, "reading templates needs no premium")
            #expect(try await newcomer.request("PRESETS").okArray.count >= 4, "nor does reading the presets")

            // A user whose premium ended: their template stays, and every change to it is refused.
            let former = try await PushRecorder.authenticated(port: port, token: lapsed.token)
            try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, NULL)", [.text(lapsed.name)])
            try await former.wait { $0.contains { $0.kind == "SUBSCRIPTION" } }
            let (_, id) = try await Templates.created(former, Templates.create("squats", "volume", tiers: Templates.tiers([1000, 2000])))
            try await LaurelTestDatabase.scalar("SELECT laurel.revoke_premium($1::text)", [.text(lapsed.name)])
            try await former.wait { $0.filter { $0.kind == "SUBSCRIPTION" }.count == 2 }
            try await former.expectRefusals(TemplateLapseTests.gatedRequests(id, trialAvailable: true) + [
                TemplateRefusal(verb: "TEMPLATE.UPDATE", argument: ["id": .string(id), "active": true],
                                code: "premium_required", details: paywall, because: "re-activating an active template"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: ["activity": "*", "type": "daily"],
                                code: "premium_required", details: paywall, because: "creating for every activity"),
            ], of: lapsed)
            #expect(Templates.list(try await former.request("TEMPLATES")).map { $0["id"]?.stringValue } == [id])
        }
    }

    @Test func oneHundredTemplatesAreTheLimit() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-limit")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            // 4 built-ins and 20 custom activities: four "*" requests make 96 templates.
            let customs = try await app.client.pipeline((1...20).map { ("ACTIVITY.CREATE", ["name": .string("Drill \($0)")]) })
            #expect(customs.allSatisfy { $0.kind == "OK" }, "\(customs.filter { $0.kind != "OK" })")
            for type in ["volume", "daily", "weekly", "streak"] {
                let made = try await app.request("TEMPLATE.CREATE", ["activity": "*", "type": .string(type)])
                #expect(Templates.list(made).count == 24, "\(type): \(made.raw.prefix(300))")
            }
            Engine.ok(try await app.request("LOG", Engine.log("squats", amount: 2000, at: TestClock.noon(daysAgo: 1))))
            try await app.settle()
            #expect(try await PremiumRows.of(user).templateCount == 96)

            let overLimit: JSONObject = ["code": "too_large", "limit": 100]
            try await app.expectRefusals([
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: ["activity": "*", "type": "speed"], code: "too_large",
                                details: overLimit, because: "24 more would make 120"),
            ], of: user)
            for number in 1...4 {
                _ = try await Templates.created(app, Templates.create("squats", "volume", tiers: Templates.tiers([number * 10_000])))
            }
            #expect(try await PremiumRows.of(user).templateCount == 100)
            try await app.expectRefusals([
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: Templates.create("squats", "volume", tiers: Templates.tiers([10])),
                                code: "too_large", details: overLimit, because: "the 101st template"),
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: ["activity": "squats", "preset": "starter_volume"],
                                code: "too_large", details: overLimit, because: "the 101st template from a preset"),
            ], of: user)

            // An import at the limit creates nothing and says why for each entry.
            let before = try await PremiumRows.of(user)
            let document: JSONObject = [
                "laurel_templates": 1,
                "templates": [["name": "One more", "activity": "squats", "type": "volume", "tiers": Templates.tiers([10])]],
            ]
            let imported = Engine.ok(try await app.request("TEMPLATE.IMPORT", ["document": .object(document)]))
            #expect(imported["created"] == [])
            #expect(imported["skipped"]?.arrayValue?.first?.objectValue?["name"] == "One more")
            #expect(imported["skipped"]?.arrayValue?.first?.objectValue?["reason"]?.stringValue?.contains("100") == true, "\(imported)")
            #expect(try await PremiumRows.of(user) == before)

            // Deleting one makes room for one.
            let oldest = try #require(Templates.list(try await app.request("TEMPLATES")).first?["id"]?.stringValue)
            Engine.ok(try await app.request("TEMPLATE.DELETE", ["id": .string(oldest)]))
            _ = try await Templates.created(app, Templates.create("squats", "volume", tiers: Templates.tiers([10])))
            #expect(try await PremiumRows.of(user).templateCount == 100)
        }
    }

    @Test func tenTiersAreAllowedButElevenAreNot() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-ten")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            let (template, id) = try await Templates.created(app, Templates.create("lunges", "volume", tiers: Templates.tiers(Array(1...10))))
            let achievements = Templates.achievements(template)
            #expect(achievements.count == 10)
            #expect(achievements.map { $0["tier"]?.stringValue } == ["bronze", "silver", "gold"] + Array(repeating: "platinum", count: 7),
                    "tiers without a tier's name take theirs by position")
            #expect(achievements.map { $0["name"]?.stringValue }.last == "Lunges Tier 10")

            try await app.expectRefusals([
                TemplateRefusal(verb: "TEMPLATE.CREATE", argument: Templates.create("lunges", "volume", tiers: Templates.tiers(Array(1...11))),
                                code: "invalid_argument", field: "tiers", because: "11 tiers"),
                TemplateRefusal(verb: "TEMPLATE.UPDATE", argument: ["id": .string(id), "tiers": Templates.tiers(Array(1...11))],
                                code: "invalid_argument", field: "tiers", because: "updating to 11 tiers"),
            ], of: user)
            let updated = Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "tiers": Templates.tiers(Array(11...20))]))
            #expect(Templates.achievements(updated).map { $0["target"]?.intValue } == Array(11...20))
        }
    }
}

extension JSONObject {
    /// A copy with one member set.
    func with(_ key: String, _ value: JSONValue) -> JSONObject {
        var copy = self
        copy[key] = value
        return copy
    }
}
