import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// When premium ends, connected clients hear of it, templates can no longer be changed, and they keep
/// unlocking (rules.md, "Subscriptions and entitlements").
@Suite struct TemplateLapseTests {
    @Test func aLapsedUserCannotChangeTemplatesWhichStillUnlock() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-lapse")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)

            // Premium without end for long enough to make a template, then taken away.
            try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, NULL)", [.text(user.name)])
            try await Self.subscriptionPushes(app, count: 1)
            _ = try await Templates.activity(app, "Rowing")
            let (template, templateID) = try await Templates.created(app, Templates.create("Rowing", "volume", tiers: Templates.tiers([10, 20, 30])))
            let ids = Templates.achievements(template).compactMap { $0["id"]?.stringValue }
            try await LaurelTestDatabase.scalar("SELECT laurel.revoke_premium($1::text)", [.text(user.name)])
            try await Self.subscriptionPushes(app, count: 2)

            // A grant of two seconds: the client hears of it, and of its end.
            try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, '2 seconds')", [.text(user.name)])
            let pushes = try await Self.subscriptionPushes(app, count: 4)
            let (active, lapsed) = (pushes[2].object, pushes[3].object)
            #expect(active["status"] == "active" && active["tier"] == "premium", "\(active)")
            #expect(active["expires_at"]?.stringValue != nil)
            #expect(lapsed["status"] == "lapsed" && lapsed["tier"] == "free", "\(lapsed)")
            #expect(lapsed["trial_available"] == true)
            #expect(lapsed["seq"]?.intValue == (active["seq"]?.intValue ?? 0) + 1)
            let now = Engine.ok(try await app.request("SUBSCRIPTION"))
            #expect(now["status"] == "lapsed")
            #expect(now["entitlements"] == ["templates": false, "template_limit": 0])

            try await app.expectRefusals(Self.gatedRequests(templateID, trialAvailable: true), of: user)
            #expect(try await Templates.listed(app, templateID)?["name"] == template["name"], "the template is kept as it was")

            // Logging still evaluates the template: bronze unlocks, answered and pushed.
            let logged = Engine.ok(try await app.request("LOG", Engine.log("Rowing", amount: 10)))
            #expect(Engine.ids(logged["unlocked"]).filter { $0.hasPrefix("tpl.") } == [ids[0]])
            try await app.wait { Templates.unlocks($0, template: templateID).count == 1 }

            // After a trial has come and gone, the refusal says no trial is left.
            try await Templates.startTrial(app)
            try await Self.subscriptionPushes(app, count: 5)
            try await LaurelTestDatabase.scalar(
                "UPDATE laurel.subscriptions SET ends_at = now() WHERE user_id = $1::bigint AND kind = 'trial'", [.int(Int(user.id.rawValue))])
            let ended = try await Self.subscriptionPushes(app, count: 6)
            #expect(ended[5].object["status"] == "lapsed" && ended[5].object["trial_available"] == false, "\(ended[5])")

            try await app.expectRefusals(Self.gatedRequests(templateID, trialAvailable: false), of: user)
            let again = Engine.ok(try await app.request("LOG", Engine.log("Rowing", amount: 10)))
            #expect(Engine.ids(again["unlocked"]).filter { $0.hasPrefix("tpl.") } == [ids[1]])
            let unlocks = try await app.wait { Templates.unlocks($0, template: templateID).count == 2 }
            #expect(Templates.unlocks(unlocks, template: templateID).map { $0["id"]?.stringValue } == [ids[0], ids[1]])
        }
    }

    /// Everything that changes templates, each refused with `premium_required` for a lapsed user.
    static func gatedRequests(_ templateID: String, trialAvailable: Bool) -> [TemplateRefusal] {
        let details: JSONObject = ["feature": "templates", "trial_available": .bool(trialAvailable)]
        let id = JSONValue.string(templateID)
        let document: JSONObject = [
            "laurel_templates": 1,
            "templates": [["name": "Imported", "activity": "squats", "type": "volume", "tiers": Templates.tiers([5])]],
        ]
        return [
            TemplateRefusal(verb: "TEMPLATE.UPDATE", argument: ["id": id, "name": "Renamed"], code: "premium_required",
                            details: details, because: "renaming"),
            TemplateRefusal(verb: "TEMPLATE.UPDATE", argument: ["id": id, "tiers": Templates.tiers([1, 2])], code: "premium_required",
                            details: details, because: "retiering"),
            TemplateRefusal(verb: "TEMPLATE.UPDATE", argument: ["id": id, "active": false], code: "premium_required",
                            details: details, because: "deactivating"),
            TemplateRefusal(verb: "TEMPLATE.DELETE", argument: ["id": id], code: "premium_required", details: details, because: "deleting"),
            TemplateRefusal(verb: "TEMPLATE.CREATE", argument: Templates.create("squats", "volume", tiers: Templates.tiers([1])),
                            code: "premium_required", details: details, because: "creating"),
            TemplateRefusal(verb: "TEMPLATE.IMPORT", argument: ["document": .object(document)], code: "premium_required",
                            details: details, because: "importing"),
        ]
    }

    /// Waits until the client has seen `count` SUBSCRIPTION pushes and returns them in order.
    @discardableResult
    static func subscriptionPushes(
        _ app: PushRecorder, count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [LineClient.Line] {
        let pushes = try await app.wait(timeout: .seconds(20), sourceLocation: sourceLocation) {
            $0.filter { $0.kind == "SUBSCRIPTION" }.count >= count
        }
        let subscriptions = pushes.filter { $0.kind == "SUBSCRIPTION" }
        try #require(subscriptions.count == count, "\(subscriptions.map(\.raw))", sourceLocation: sourceLocation)
        return subscriptions
    }
}
