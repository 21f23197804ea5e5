import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// Comparative achievements over real sockets and PostgreSQL (rules.md, "Comparative achievements"): the server ranks
/// the latest ended week's global board once the week has ended everywhere, keeps the ranks a goal can reach, and a
/// user's next evaluation unlocks the goal, dated then, when the user's rank is within the percent of a board of 20
/// users or more. Boards of the `logs` board are shared by every test's users, so this test runs a catalog whose goal
/// ranks a board of an activity nobody else logs.
@Suite struct TopPercentTests {
    /// Standfit with `top_quarter` replaced by a goal on the board of an activity of its own.
    static func rowingCatalog() throws -> String {
        try CatalogVariant.standfit(named: "standfit-rowing") { activities, achievements in
            activities.append(["id": "rowing", "name": "Rowing", "unit": "reps"])
            achievements.removeAll { $0["id"] as? String == "top_quarter" }
            achievements.append([
                "id": "top_rower", "name": "Top Rower", "description": "Finish a week in the top quarter of rowers.", "icon": "🚣",
                "category": "challenges", "tier": "silver", "rule": ["kind": "top_percent", "board": "activity:rowing", "percent": 25], "target": 1,
            ])
        }
    }

    /// The ranking of `week`'s rowing board: its size and the ranks kept; nil until it is ranked.
    static func ranking(of week: ISOWeek) async throws -> (total: Int, ranksKept: Int)? {
        guard let total = try await LaurelTestDatabase.scalar(
            "SELECT total FROM laurel.week_rankings WHERE board = 'activity:rowing' AND week = $1::text", [.text(week.description)]
        ).flatMap(Int.init) else { return nil }
        let kept = try await LaurelTestDatabase.scalar(
            "SELECT count(*) FROM laurel.week_ranks WHERE board = 'activity:rowing' AND week = $1::text", [.text(week.description)])
        return (total, kept.flatMap(Int.init) ?? 0)
    }

    @Test func theTopQuarterOfAnEndedWeekOfTwentyUsersOrMoreUnlocksAtTheNextEvaluation() async throws {
        let catalog = try Self.rowingCatalog()
        let week = try #require(EndedWeeks.latest(at: Date()).first)
        // Wednesday noon UTC of the latest ended week: within the backfill window, in that week for a UTC user.
        let wednesday = week.monday.adding(days: 2).start(in: .gmt).addingTimeInterval(12 * 3_600)
        var created: [TestUser] = []
        for index in 0..<21 { created.append(try await LaurelTestDatabase.createUser("rower-\(index)")) }
        let users = created
        // A ranking of a week long gone, which the first ranking of the board deletes.
        _ = try await LaurelTestDatabase.scalar(
            """
            WITH ranking AS (INSERT INTO laurel.week_rankings (board, week, total, ranked_at) VALUES ('activity:rowing', '2000-W01', 30, now()))
            INSERT INTO laurel.week_ranks (user_id, board, week, rank) VALUES ($1::bigint, 'activity:rowing', '2000-W01', 1) RETURNING 1
            """, [.int(Int(users[0].id.rawValue))])
        var configuration = ServerConfiguration(port: 0)
        configuration.weekRankingRefresh = .milliseconds(500)
        configuration.weekRankingCheckInterval = .milliseconds(100)

        try await TestServer.run(configuration: configuration, catalog: catalog) { port in
            let top = try await PushRecorder.authenticated(port: port, token: users[0].token)
            Engine.ok(try await top.request("LOG", Engine.log("rowing", amount: 500, at: wednesday)))
            // 19 rowers in all: one too few for any rank to count.
            for (index, user) in users[1..<19].enumerated() {
                let client = try await LineClient.authenticated(port: port, token: user.token)
                Engine.ok(try await client.request("LOG", Engine.log("rowing", amount: 10 + index, at: wednesday)))
            }
            #expect(try await Eventually.holds { try await Self.ranking(of: week)?.total == 19 })
            #expect(try await Self.ranking(of: week)?.ranksKept == 0, "no rank of a board under 20 users can meet a goal")
            #expect(try await Self.ranking(of: ISOWeek("2000-W01")!) == nil, "weeks before the four latest are forgotten")
            #expect(try await LaurelTestDatabase.scalar("SELECT count(*) FROM laurel.week_ranks WHERE week = '2000-W01'") == "0")
            try await Task.sleep(for: .milliseconds(600))
            Engine.ok(try await top.request("LOG", Engine.log("squats")))
            let locked = Engine.ok(try await top.request("ACHIEVEMENT", ["id": "top_rower", "explain": true]))
            #expect(locked["unlocked_at"] == nil || locked["unlocked_at"] == .null)
            #expect(locked["explain"]?["blocked"] == "not_this_period" && locked["explain"]?["remaining"] == 1)
            #expect(locked["explain"]?["rule"] == "top_percent" && locked["unit"] == "weeks")

            // Two more: 21 rowers, the top quarter is ranks 1 to 6.
            let last = try await PushRecorder.authenticated(port: port, token: users[20].token)
            for user in [users[19]] {
                let client = try await LineClient.authenticated(port: port, token: user.token)
                Engine.ok(try await client.request("LOG", Engine.log("rowing", amount: 3, at: wednesday)))
            }
            Engine.ok(try await last.request("LOG", Engine.log("rowing", amount: 1, at: wednesday)))
            #expect(try await Eventually.holds { try await Self.ranking(of: week).map { $0 == (21, 6) } ?? false })
            // Standings read before the ranking grew answer until they are half a second old (the test's refresh).
            try await Task.sleep(for: .milliseconds(600))

            let before = Date()
            let answer = Engine.ok(try await top.request("LOG", Engine.log("squats")))
            #expect(answer["unlocked"]?.arrayValue?.contains { $0["id"] == "top_rower" } == true)
            let pushes = try await top.wait { $0.contains { $0.kind == "UNLOCK" && $0.object["id"] == "top_rower" } }
            #expect(pushes.filter { $0.kind == "UNLOCK" && $0.object["id"] == "top_rower" }.count == 1)
            let unlocked = Engine.ok(try await top.request("ACHIEVEMENT", ["id": "top_rower", "explain": true]))
            let format = ISO8601DateFormatter()
            format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let unlockedAt = try #require(unlocked["unlocked_at"]?.stringValue.flatMap(format.date(from:)))
            #expect(unlockedAt >= before.addingTimeInterval(-0.001), "dated at the evaluation that found it, not at the week's end")
            #expect(unlocked["explain"]?["remaining"] == 0 && unlocked["explain"]?["blocked"] == nil)

            // The last of 21 is not in the top quarter; the unlock is stored once.
            Engine.ok(try await last.request("LOG", Engine.log("squats")))
            #expect(Engine.ok(try await last.request("ACHIEVEMENT", ["id": "top_rower"]))["unlocked_at"] == nil)
            Engine.ok(try await top.request("LOG", Engine.log("squats")))
            let stored = try await LaurelTestDatabase.scalar(
                "SELECT count(*) FROM laurel.unlocks WHERE achievement_id = 'top_rower' AND user_id = ANY($1::bigint[])",
                [.text("{" + users.map(\.id.description).joined(separator: ",") + "}")])
            #expect(stored == "1")
        }
    }
}
