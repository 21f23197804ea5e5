import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// What a template's unlocks are worth (rules.md, "XP and levels" and "Achievement templates"): 50 XP for each
/// unlocked achievement still listed for the user, so an unlock of a tier that was changed or removed keeps its row
/// in the history and counts for nothing, whatever the order of edits; a deleted template's unlocks count for
/// nothing; a switched-off template's still count. PROFILE's `unlocked` counts the same unlocks.
@Suite struct TemplateUnlockXPTests {
    /// PROFILE's `xp` and `unlocked`, checked against the stored figures and against ACHIEVEMENTS.
    static func figures(
        _ app: PushRecorder, _ user: TestUser, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (xp: Int, unlocked: Int) {
        let profile = Engine.ok(try await app.request("PROFILE"), sourceLocation: sourceLocation)
        let xp = try #require(profile["xp"]?.intValue, sourceLocation: sourceLocation)
        let unlocked = try #require(profile["unlocked"]?.intValue, sourceLocation: sourceLocation)
        let stored = try await LaurelTestDatabase.count(
            "SELECT xp FROM laurel.progress WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
        #expect(stored == xp, "the stored xp follows", sourceLocation: sourceLocation)
        let everything = Engine.ok(try await app.request("ACHIEVEMENTS", ["include_hidden": true]), sourceLocation: sourceLocation)
        #expect(everything["summary"]?["unlocked"]?.intValue == unlocked, "PROFILE and ACHIEVEMENTS count alike", sourceLocation: sourceLocation)
        let listedUnlocks = Engine.byID(everything).values.filter { $0["unlocked_at"] != nil }.count
        #expect(listedUnlocks == unlocked, sourceLocation: sourceLocation)
        return (xp, unlocked)
    }

    @Test func changingATargetBackAndForthEarnsNoXP() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-xp-flip")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            _ = try await Templates.activity(app, "Rowing")
            let (_, id) = try await Templates.created(app, Templates.create("Rowing", "volume", tiers: Templates.tiers([50])))
            Engine.ok(try await app.request("LOG", Engine.log("Rowing", amount: 70, at: TestClock.noon(daysAgo: 1))))
            try await app.wait { Templates.unlocks($0, template: id).count == 1 }
            let start = try await Self.figures(app, user)
            // 10 for the log, 5 for the day, 50 for first_exercise and 50 for the tier.
            #expect(start == (xp: 115, unlocked: 2))

            // 50 → 60: the new target is met at once and unlocks; the old unlock is history, worth nothing.
            Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "tiers": Templates.tiers([60])]))
            try await app.wait { Templates.unlocks($0, template: id).count == 2 }
            #expect(try await Self.figures(app, user) == start)
            // 60 → 50: the old unlock is listed again (with its date), the one of 60 is history.
            Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "tiers": Templates.tiers([50])]))
            #expect(try await Self.figures(app, user) == start)
            Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "tiers": Templates.tiers([60])]))
            #expect(try await Self.figures(app, user) == start)
            #expect(try await PremiumRows.unlockCount(of: user, prefix: "tpl.\(id).") == 2, "both unlocks stay in the history")

            // The session's LOG path counts alike.
            let logged = Engine.ok(try await app.request("LOG", Engine.log("Rowing", amount: 1, at: TestClock.noon(daysAgo: 1, minute: 1))))
            #expect(logged["xp"]?.intValue == start.xp + 10)
            #expect(try await Self.figures(app, user) == (xp: start.xp + 10, unlocked: 2))
            try await app.settle()
            #expect(Templates.unlocks(app.pushes, template: id).count == 2, "each achievement is pushed once")
        }
    }

    @Test func aSwitchedOffTemplateKeepsItsXPAndADeletedOneLosesIt() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-xp-delete")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            _ = try await Templates.activity(app, "Climbing")
            let (_, id) = try await Templates.created(app, Templates.create("Climbing", "volume", tiers: Templates.tiers([10, 20, 1000])))
            Engine.ok(try await app.request("LOG", Engine.log("Climbing", amount: 25, at: TestClock.noon(daysAgo: 2))))
            try await app.wait { Templates.unlocks($0, template: id).count == 2 }
            #expect(try await Self.figures(app, user) == (xp: 165, unlocked: 3))

            // Switched off, its achievements are hidden but still the user's: they come back unchanged.
            Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "active": false]))
            #expect(try await Self.figures(app, user) == (xp: 165, unlocked: 3))
            let visible = Engine.ok(try await app.request("ACHIEVEMENTS"))
            #expect(visible["summary"]?["unlocked"]?.intValue == 1, "hidden ones are left out unless asked for")
            Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "active": true]))
            #expect(try await Self.figures(app, user) == (xp: 165, unlocked: 3))

            // A removed tier's unlock counts no more.
            Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "tiers": Templates.tiers([10, 1000])]))
            #expect(try await Self.figures(app, user) == (xp: 115, unlocked: 2))

            Engine.ok(try await app.request("TEMPLATE.DELETE", ["id": .string(id)]))
            #expect(try await Self.figures(app, user) == (xp: 65, unlocked: 1))
        }
    }

    @Test func renamingATierWithTheSameTargetKeepsItsUnlockAndDate() async throws {
        let user = try await LaurelTestDatabase.createUser("tpl-tier-rename")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            _ = try await Templates.activity(app, "Skipping")
            let (created, id) = try await Templates.created(app, Templates.create("Skipping", "volume", tiers: Templates.tiers([10, 20])))
            let ids = Templates.achievements(created).compactMap { $0["id"]?.stringValue }
            Engine.ok(try await app.request("LOG", Engine.log("Skipping", amount: 15, at: TestClock.noon(daysAgo: 1))))
            try await app.wait { Templates.unlocks($0, template: id).count == 1 }
            let before = try await Self.figures(app, user)
            let earned = TemplateUpdateTests.unlockDates(try #require(try await Templates.listed(app, id)))
            #expect(Set(earned.keys) == [ids[0]])

            let renamed = Engine.ok(try await app.request("TEMPLATE.UPDATE", [
                "id": .string(id), "tiers": [Templates.tier("first step", 10, label: "Off the ground"), Templates.tier("silver", 20)],
            ]))
            #expect(Templates.achievements(renamed).compactMap { $0["id"]?.stringValue } == ids, "the same achievements")
            #expect(TemplateUpdateTests.unlockDates(renamed) == earned, "kept with its date")
            #expect(Templates.achievements(renamed).first?["name"] == "Off the ground")
            #expect(try await Self.figures(app, user) == before)
            try await app.settle()
            #expect(Templates.unlocks(app.pushes, template: id).count == 1, "renaming unlocks nothing again")
            #expect(try await PremiumRows.unlockCount(of: user, prefix: "tpl.\(id).") == 1)
        }
    }
}
