import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// The premium user story end to end over a socket: a free user meets the paywall, starts a trial, makes a
/// template for their own exercise, earns two tiers, deletes the exercise and brings it back.
@Suite struct PremiumUserStoryTests {
    @Test func aTrialUserEarnsTemplateTiersThatSurviveDeletingAndRecreatingTheActivity() async throws {
        let user = try await LaurelTestDatabase.createUser("premium-story")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            let activityID = try await Templates.activity(app, "Pull-ups")
            let volume = Templates.create("Pull-ups", "volume", tiers: Templates.tiers([25, 50, 100, 250]))

            // The paywall: refused, with what a client needs to offer the trial, and nothing stored.
            let before = try await PremiumRows.of(user)
            let refused = try await app.request("TEMPLATE.CREATE", volume)
            #expect(refused.errorCode == "premium_required", "\(refused)")
            #expect(refused.object["feature"] == "templates")
            #expect(refused.object["trial_available"] == true)
            #expect(try await PremiumRows.of(user) == before)
            #expect(Templates.list(try await app.request("TEMPLATES")).isEmpty)

            try await Templates.startTrial(app)
            let (template, templateID) = try await Templates.created(app, volume)
            #expect(template["activity"]?.stringValue == activityID)
            #expect(template["type"] == "volume")
            #expect(template["active"] == true)
            #expect(Templates.achievements(template).map { $0["target"]?.intValue } == [25, 50, 100, 250])

            // 60 pull-ups in three sets: bronze (25) on the second, silver (50) on the third.
            var unlockedByLogs: [[String]] = []
            for amount in [20, 20, 20] {
                let answer = Engine.ok(try await app.request("LOG", Engine.log("Pull-ups", amount: amount)))
                unlockedByLogs.append(Engine.ids(answer["unlocked"]).filter { $0.hasPrefix("tpl.") })
            }
            #expect(unlockedByLogs == [[], ["tpl.\(templateID).25"], ["tpl.\(templateID).50"]])
            try await app.settle()
            let unlocks = Templates.unlocks(app.pushes, template: templateID)
            #expect(unlocks.map { $0["tier"]?.stringValue } == ["bronze", "silver"])
            #expect(unlocks.map { $0["target"]?.intValue } == [25, 50])
            #expect(unlocks.allSatisfy { $0["source"] == "template" && $0["activity"]?.stringValue == activityID })
            let others = app.pushes("UNLOCK").filter { $0.object["template_id"]?.stringValue != templateID }
            #expect(others.allSatisfy { $0.object["source"] == "builtin" }, "\(others.map(\.raw))")

            for filter: JSONObject in [["activity": "Pull-ups"], ["source": "template"]] {
                let listed = Engine.ok(try await app.request("ACHIEVEMENTS", filter))
                #expect(listed["summary"]?.objectValue?["total"] == 4, "\(filter)")
                #expect(listed["summary"]?.objectValue?["unlocked"] == 2, "\(filter)")
                #expect(Engine.byID(listed).values.allSatisfy { $0["template_id"]?.stringValue == templateID }, "\(filter)")
            }
            let unlockedAt = Self.unlockDates(Engine.ok(try await app.request("ACHIEVEMENTS", ["source": "template"])))
            #expect(unlockedAt.count == 2)
            let streakBefore = Engine.ok(try await app.request("PROFILE"))["streak"]

            // Deleting the activity deactivates the template and hides its achievements; the streak stays.
            let deleted = Engine.ok(try await app.request("ACTIVITY.DELETE", ["id": .string(activityID)]))
            #expect(deleted["deleted"] == true)
            let inactive = try #require(try await Templates.listed(app, templateID))
            #expect(inactive["active"] == false)
            #expect(inactive["inactive_reason"] == "activity_deleted")
            #expect(Templates.achievements(inactive).allSatisfy { $0["hidden"] == true })
            let visible = Engine.ok(try await app.request("ACHIEVEMENTS"))
            #expect(Engine.byID(visible).keys.allSatisfy { !$0.hasPrefix("tpl.") }, "hidden template achievements are left out")
            let ofActivity = Engine.ok(try await app.request("ACHIEVEMENTS", ["activity": "Pull-ups"]))
            #expect(ofActivity["summary"]?.objectValue?["total"] == 0)
            let withHidden = Engine.ok(try await app.request("ACHIEVEMENTS", ["source": "template", "include_hidden": true]))
            #expect(withHidden["summary"]?.objectValue?["total"] == 4)
            #expect(Self.unlockDates(withHidden) == unlockedAt, "earned tiers stay earned while hidden")
            #expect(Engine.byID(withHidden).values.allSatisfy { $0["hidden"] == true })
            #expect(Engine.ok(try await app.request("PROFILE"))["streak"] == streakBefore)
            #expect(try await app.request("LOG", Engine.log("Pull-ups", amount: 5)).errorCode == "not_found")

            // Re-creating the name restores the activity: same id, the template active, the two tiers as earned.
            let recreated = Engine.ok(try await app.request("ACTIVITY.CREATE", ["name": "Pull-ups"]))
            #expect(recreated["id"]?.stringValue == activityID)
            #expect(recreated["deleted"] == false)
            let active = try #require(try await Templates.listed(app, templateID))
            #expect(active["active"] == true)
            #expect(active["inactive_reason"] == nil)
            let restored = Engine.ok(try await app.request("ACHIEVEMENTS", ["activity": "Pull-ups"]))
            #expect(restored["summary"]?.objectValue?["total"] == 4)
            #expect(Self.unlockDates(restored) == unlockedAt)
            #expect(Engine.byID(restored).values.allSatisfy { $0["hidden"] == false })

            try await app.settle()
            #expect(Templates.unlocks(app.pushes, template: templateID).count == 2, "nothing is unlocked or pushed twice")
            #expect(try await PremiumRows.unlockCount(of: user, prefix: "tpl.\(templateID).") == 2)
        }
    }

    /// The unlock date of every unlocked achievement in an ACHIEVEMENTS answer, by id.
    static func unlockDates(_ answer: JSONObject) -> [String: String] {
        var dates: [String: String] = [:]
        for (id, achievement) in Engine.byID(answer) {
            if let at = achievement["unlocked_at"]?.stringValue { dates[id] = at }
        }
        return dates
    }
}
