import Foundation
import LaurelCore
import LaurelJSON
import Testing

/// Speed is the one measure made from the logs themselves rather than running sums, so a `speed` tier must see
/// every live log of its activity whenever it is evaluated: after being switched off and on, after its
/// template was deleted and made again, and after its window changed.
@Suite struct SpeedTemplateLifecycleTests {
    /// A premium user with a custom activity "Jumps" and a speed template of one tier, 10 within 10 minutes.
    private static func withSpeedTemplate(
        _ prefix: String, _ body: @Sendable @escaping (_ app: PushRecorder, _ user: TestUser, _ templateID: String) async throws -> Void
    ) async throws {
        let user = try await LaurelTestDatabase.createUser(prefix)
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            _ = try await Templates.activity(app, "Jumps")
            let (_, id) = try await Templates.created(app, Templates.create("Jumps", "speed", tiers: Templates.tiers([10], window: 10)))
            try await body(app, user, id)
        }
    }

    @Test func reactivatingCountsTheLogsMadeWhileSwitchedOff() async throws {
        try await Self.withSpeedTemplate("speed-toggle") { app, user, id in
            let achievement = "tpl.\(id).10.w10"
            let start = TestClock.noon(daysAgo: 1)
            Engine.ok(try await app.request("LOG", Engine.log("Jumps", amount: 6, at: start)))
            #expect(try await Templates.achievement(app, achievement)["progress"] == 6)

            Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "active": false]))
            // 6 + 4 within five minutes: the tier's target, reached while the template is off.
            Engine.ok(try await app.request("LOG", Engine.log("Jumps", amount: 4, at: start.addingTimeInterval(300))))
            #expect(try await PremiumRows.unlockCount(of: user, prefix: "tpl.\(id).") == 0)

            let on = Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "active": true]))
            let shown = try #require(Templates.achievements(on).first)
            #expect(shown["progress"] == 10, "the speed tier must count both logs: \(shown)")
            #expect(shown["unlocked_at"] != nil, "reactivating evaluates at once: \(shown)")
            #expect(try await PremiumRows.unlockCount(of: user, prefix: "tpl.\(id).") == 1)
        }
    }

    @Test func aNewTemplateWithAWindowUsedBeforeCountsEveryLog() async throws {
        try await Self.withSpeedTemplate("speed-again") { app, user, id in
            let start = TestClock.noon(daysAgo: 1)
            Engine.ok(try await app.request("LOG", Engine.log("Jumps", amount: 6, at: start)))
            Engine.ok(try await app.request("TEMPLATE.DELETE", ["id": .string(id)]))
            Engine.ok(try await app.request("LOG", Engine.log("Jumps", amount: 4, at: start.addingTimeInterval(300))))

            // Same activity, same window: 6 + 4 lie within it, so the new template unlocks as it is made.
            let (again, againID) = try await Templates.created(app, Templates.create("Jumps", "speed", tiers: Templates.tiers([10], window: 10)))
            let shown = try #require(Templates.achievements(again).first)
            #expect(shown["progress"] == 10, "\(shown)")
            #expect(shown["unlocked_at"] != nil, "\(shown)")
            #expect(try await PremiumRows.unlockCount(of: user, prefix: "tpl.\(againID).") == 1)
        }
    }

    @Test func aNewWindowIsMeasuredFromTheLogsAlreadyThere() async throws {
        try await Self.withSpeedTemplate("speed-window") { app, user, id in
            let start = TestClock.noon(daysAgo: 1)
            Engine.ok(try await app.request("LOG", Engine.log("Jumps", amount: 6, at: start)))
            Engine.ok(try await app.request("LOG", Engine.log("Jumps", amount: 4, at: start.addingTimeInterval(15 * 60))))
            #expect(try await Templates.achievement(app, "tpl.\(id).10.w10")["progress"] == 6, "15 minutes apart is outside 10")

            // Widened to 15 minutes, the two logs lie exactly a window apart: the new tier unlocks with the edit.
            let widened = Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "tiers": Templates.tiers([10], window: 15)]))
            let shown = try #require(Templates.achievements(widened).first)
            #expect(shown["id"]?.stringValue == "tpl.\(id).10.w15")
            #expect(shown["progress"] == 10 && shown["unlocked_at"] != nil, "\(shown)")
            let pushes = try await app.wait { !Templates.unlocks($0, template: id).isEmpty }
            #expect(Templates.unlocks(pushes, template: id).map { $0["id"]?.stringValue } == ["tpl.\(id).10.w15"])

            // Narrowed back, the old window is what counts again.
            let narrowed = Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "tiers": Templates.tiers([10], window: 10)]))
            #expect(Templates.achievements(narrowed).first?["progress"] == 6)
            #expect(try await PremiumRows.unlockCount(of: user, prefix: "tpl.\(id).") == 1)
        }
    }
}
