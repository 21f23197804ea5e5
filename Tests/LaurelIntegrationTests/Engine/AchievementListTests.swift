import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// ACHIEVEMENTS and ACHIEVEMENT: filters, summary, ordering, and the secret `level_10`.
@Suite struct AchievementListTests {
    /// Every standfit achievement but the secret one, in catalog order.
    static let visible = [
        "first_exercise", "total_100", "total_1000", "streak_7", "streak_30", "streak_365", "goal_getter_4", "goal_getter_12",
        "goal_getter_52", "responsive_10", "responsive_50", "pushups_100", "squats_1000", "all_in_one_day", "try_everything", "early_bird", "night_owl", "perfect_week", "marathon", "top_quarter", "first_share", "first_invite",
    ]

    @Test func secretAchievementStaysHiddenWhileLocked() async throws {
        let user = try await LaurelTestDatabase.createUser("secret")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            Engine.ok(try await client.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1))))

            let listed = Engine.ok(try await client.request("ACHIEVEMENTS"))
            #expect(Set(Engine.ids(listed["achievements"])) == Set(Self.visible))
            #expect(listed["summary"]?["total"]?.intValue == 22)

            let withHidden = Engine.ok(try await client.request("ACHIEVEMENTS", ["include_hidden": true]))
            #expect(withHidden["summary"]?["total"]?.intValue == 23)
            let secret = try #require(Engine.byID(withHidden)["level_10"])
            #expect(secret["name"]?.stringValue == "???")
            #expect(secret["description"] == nil)
            #expect(secret["hidden"] == true)
            #expect(secret["unlocked_at"] == nil)
            #expect(secret["target"]?.intValue == 10 && secret["tier"]?.stringValue == "gold")
            #expect(Engine.byID(withHidden)["first_exercise"]?["hidden"] == false)
            #expect(Engine.byID(withHidden)["first_exercise"]?["description"]?.stringValue == "Log your first exercise.")

            let one = Engine.ok(try await client.request("ACHIEVEMENT", ["id": "level_10"]))
            #expect(one["name"]?.stringValue == "???")
            #expect(one["description"] == nil)
            #expect(one["hidden"] == true)
            #expect(one == secret)

            let missing = try await client.request("ACHIEVEMENT", ["id": "level_11"])
            #expect(missing.errorCode == "not_found")
        }
    }

    /// Level 10 needs 7489 XP: a month of daily logs, most of the cheap achievements, then plain logs until the
    /// level is reached. The secret then shows its name, and the unlock is pushed like any other.
    @Test func reachingLevelTenRevealsTheSecret() async throws {
        let user = try await LaurelTestDatabase.createUser("level-ten")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let yesterday = 1
            var setup: [(verb: String, argument: JSONObject?)] = (1...29).map { ("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: $0))) }
            setup += [
                ("LOG", Engine.log("squats", amount: 1000, at: TestClock.noon(daysAgo: yesterday, minute: 1))),
                ("LOG", Engine.log("pushups", amount: 100, at: TestClock.noon(daysAgo: yesterday, minute: 2))),
                ("LOG", Engine.log("lunges", at: TestClock.noon(daysAgo: yesterday, minute: 3))),
                ("LOG", Engine.log("plank", amount: 60, at: TestClock.noon(daysAgo: yesterday, minute: 4))),
                ("LOG", Engine.log("squats", at: TestClock.utc(TestClock.today().adding(days: -yesterday), hour: 5))),
                ("LOG", Engine.log("squats", at: TestClock.utc(TestClock.today().adding(days: -yesterday), hour: 22))),
                ("EVENT", ["name": "share"]),
                ("EVENT", ["name": "invite"]),
                ("LOG", Engine.log("squats")),
            ]
            let setupAnswers = try await client.client.pipeline(setup)
            #expect(setupAnswers.allSatisfy { $0.kind == "OK" }, "\(setupAnswers.filter { $0.kind != "OK" }.map(\.raw))")

            var level = setupAnswers.last?.object["level"]?.intValue ?? 0
            var reachedBy: JSONObject?
            var batches = 0
            while level < 10, batches < 15 {
                batches += 1
                let answers = try await client.client.pipeline((0..<60).map { _ in ("LOG", Engine.log("pushups")) })
                #expect(answers.allSatisfy { $0.kind == "OK" })
                for answer in answers where Engine.ids(answer.object["unlocked"]).contains("level_10") {
                    reachedBy = answer.object
                }
                level = answers.last?.object["level"]?.intValue ?? level
            }
            #expect(level == 10)
            let answer = try #require(reachedBy)
            #expect(answer["level"]?.intValue == 10)
            #expect((answer["xp"]?.intValue ?? 0) >= 7489 + 50)

            let pushes = try await client.wait { $0.contains { $0.kind == "UNLOCK" && $0.object["id"]?.stringValue == "level_10" } }
            let unlock = try #require(pushes.first { $0.object["id"]?.stringValue == "level_10" })
            #expect(unlock.object["name"]?.stringValue == "Level 10")
            #expect(unlock.object["description"]?.stringValue == "Reach level 10.")
            #expect(unlock.object["hidden"] == false)
            let levels = client.pushes("LEVEL").compactMap { $0.object["level"]?.intValue }
            #expect(levels.last == 10)
            #expect(levels == levels.sorted() && Set(levels).count == levels.count, "\(levels)")

            let listed = Engine.ok(try await client.request("ACHIEVEMENTS"))
            let shown = try #require(Engine.byID(listed)["level_10"])
            #expect(shown["name"]?.stringValue == "Level 10")
            #expect(shown["hidden"] == false)
            #expect(shown["progress"]?.intValue == 10)
            #expect(listed["summary"]?["total"]?.intValue == 23)
            let one = Engine.ok(try await client.request("ACHIEVEMENT", ["id": "level_10"]))
            #expect(one["description"]?.stringValue == "Reach level 10.")
        }
    }

    @Test func filtersSummaryAndOrder() async throws {
        let user = try await LaurelTestDatabase.createUser("filters")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            Engine.ok(try await client.request("LOG", Engine.log("pushups", amount: 60, at: TestClock.noon(daysAgo: 1))))
            Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 10, at: TestClock.noon(daysAgo: 1, minute: 1))))
            // Unlocked later than first_exercise, so listed before it.
            try await Task.sleep(for: .milliseconds(20))
            let shared = Engine.ok(try await client.request("EVENT", ["name": "share"]))
            #expect(Engine.ids(shared["unlocked"]) == ["first_share"])

            func list(_ filters: JSONObject = [:]) async throws -> (ids: [String], summary: JSONValue?, answer: JSONObject) {
                let answer = Engine.ok(try await client.request("ACHIEVEMENTS", filters))
                return (Engine.ids(answer["achievements"]), answer["summary"], answer)
            }

            // Unlocked newest first; in progress closest to done first (ties in catalog order); then locked.
            let unlocked = ["first_share", "first_exercise"]
            let inProgress = [
                "pushups_100",      // 60/100
                "all_in_one_day",   // 2/4
                "try_everything",   // 2/4
                "marathon",         // 2/10
                "streak_7",         // 1/7
                "streak_30",        // 1/30
                "total_100",        // 2/100
                "squats_1000",      // 10/1000
                "streak_365",       // 1/365
                "total_1000",       // 2/1000
            ]
            // Fewer than three active days this week: no weekly goal met yet; no reminder reported.
            let locked = [
                "goal_getter_4", "goal_getter_12", "goal_getter_52", "responsive_10", "responsive_50", "early_bird", "night_owl",
                "perfect_week", "top_quarter", "first_invite",
            ]
            let all = try await list()
            #expect(all.ids == unlocked + inProgress + locked)
            #expect(all.summary == ["unlocked": 2, "total": 22, "by_tier": ["bronze": 2, "silver": 0, "gold": 0, "platinum": 0]])
            let shown = Engine.byID(all.answer)
            #expect(shown["pushups_100"]?["progress"]?.intValue == 60)
            #expect(shown["pushups_100"]?["activity"]?.stringValue == "pushups")
            #expect(shown["pushups_100"]?["unit"]?.stringValue == "reps")
            #expect(shown["pushups_100"]?["source"]?.stringValue == "builtin")
            #expect(shown["first_share"]?["unlocked_at"]?.stringValue != nil)
            #expect(shown["total_100"]?["unlocked_at"] == nil)

            #expect(try await list(["status": "unlocked"]).ids == unlocked)
            #expect(try await list(["status": "in_progress"]).ids == inProgress)
            let lockedOnly = try await list(["status": "locked"])
            #expect(lockedOnly.ids == locked)
            #expect(lockedOnly.summary?["unlocked"]?.intValue == 0 && lockedOnly.summary?["total"]?.intValue == 10)

            let social = try await list(["category": "social"])
            #expect(social.ids == ["first_share", "first_invite"])
            #expect(social.summary == ["unlocked": 1, "total": 2, "by_tier": ["bronze": 1, "silver": 0, "gold": 0, "platinum": 0]])
            #expect(try await list(["category": "milestones"]).ids == ["first_exercise", "total_100", "total_1000"])
            // With the secret: level 2 of 10 puts it between first_exercise and total_100.
            #expect(try await list(["category": "milestones", "include_hidden": true]).ids == ["first_exercise", "level_10", "total_100", "total_1000"])
            #expect(try await list(["category": "nonsense"]).ids.isEmpty)

            #expect(try await list(["activity": "pushups"]).ids == ["pushups_100"])
            #expect(try await list(["activity": "Pushups"]).ids == ["pushups_100"])
            #expect(try await list(["activity": "SQUATS"]).ids == ["squats_1000"])
            #expect(try await list(["activity": "plank"]).ids.isEmpty)
            let unknown = try await client.request("ACHIEVEMENTS", ["activity": "yoga"])
            #expect(unknown.errorCode == "not_found")

            #expect(try await list(["source": "builtin"]).ids == all.ids)
            let templates = try await list(["source": "template"])
            #expect(templates.ids.isEmpty)
            #expect(templates.summary?["total"]?.intValue == 0)

            #expect(try await list(["category": "volume", "status": "in_progress"]).ids == ["pushups_100", "squats_1000"])
            #expect(try await list(["category": "volume", "status": "unlocked"]).ids.isEmpty)
            #expect(try await list(["activity": "pushups", "status": "locked"]).ids.isEmpty)

            let badStatus = try await client.request("ACHIEVEMENTS", ["status": "done"])
            #expect(badStatus.errorCode == "invalid_argument")
            let badField = try await client.request("ACHIEVEMENTS", ["catgory": "social"])
            #expect(badField.errorCode == "invalid_argument")
        }
    }
}
