import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// ACHIEVEMENT `explain` over real sockets: the measure and what remains, the sentence, the deadline of a running
/// streak, unlocked ones explained with nothing remaining, hidden ones answered, and what blocks a template's.
@Suite struct ExplainTests {
    static func explain(_ client: PushRecorder, _ id: String) async throws -> JSONObject? {
        Engine.ok(try await client.request("ACHIEVEMENT", ["id": .string(id), "explain": true]))["explain"]?.objectValue
    }

    @Test func streaksTotalsAndUnlockedOnesAreExplained() async throws {
        let user = try await LaurelTestDatabase.createUser("explain")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            Engine.ok(try await client.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1))))
            Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 30)))

            // Active yesterday and today: tomorrow keeps the run, the day after it falls at its UTC midnight.
            let fallsAt = TestClock.utc(TestClock.today().adding(days: 2), hour: 0)
            #expect(try await Self.explain(client, "streak_7") == [
                "rule": "streak", "measure": 2, "target": 7, "remaining": 5, "text": "5 more active days in a row",
                "deadline": TestClock.text(fallsAt),
            ])
            #expect(try await Self.explain(client, "squats_1000") == [
                "rule": "activity_total", "measure": 31, "target": 1000, "remaining": 969, "text": "969 more reps of Squats in total",
                "deadline": nil,
            ])
            let unlocked = try await Self.explain(client, "first_exercise")
            #expect(unlocked?["remaining"] == 0 && unlocked?["text"] == "Unlocked." && unlocked?["deadline"] == .null)
            // Hidden ones are answered by id, explained too.
            #expect(try await Self.explain(client, "level_10")?["rule"] == "level")

            let plain = Engine.ok(try await client.request("ACHIEVEMENT", ["id": "streak_7"]))
            #expect(plain["explain"] == nil)
            let bad = try await client.client.request("ACHIEVEMENT", ["id": "streak_7", "explain": "yes"])
            #expect(bad.errorCode == "invalid_argument" && bad.errorField == "explain")
        }
    }

    @Test func aTemplatesAchievementSaysWhatBlocksIt() async throws {
        let user = try await LaurelTestDatabase.createUser("explain-template")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, NULL)", [.text(user.name)])
            _ = try await app.wait { $0.contains { $0.kind == "SUBSCRIPTION" } }
            let (template, templateID) = try await Templates.created(app, Templates.create("pushups", "volume", tiers: Templates.tiers([10, 20])))
            let id = try #require(Templates.achievements(template).first?["id"]?.stringValue)
            Engine.ok(try await app.request("LOG", Engine.log("pushups", amount: 4)))
            let open = try await Self.explain(app, id)
            #expect(open?["measure"] == 4 && open?["remaining"] == 6 && open?["blocked"] == nil)

            Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(templateID), "active": false]))
            #expect(try await Self.explain(app, id)?["blocked"] == "template_inactive")
            Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(templateID), "active": true]))
            try await LaurelTestDatabase.scalar("SELECT laurel.revoke_premium($1::text)", [.text(user.name)])
            _ = try await app.wait { $0.filter { $0.kind == "SUBSCRIPTION" }.count >= 2 }
            #expect(try await Self.explain(app, id)?["blocked"] == "premium_lapsed")
        }
    }
}
