import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelServer
import Testing

/// The operators' views show the engine's figures: `laurel.user_overview` one row a user, `laurel.achievement_stats`
/// one row an achievement.
@Suite struct AdminViewTests {
    struct Overview: Equatable {
        var tier: String?
        var status: String?
        var level: Int?
        var xp: Int?
        var currentStreak: Int?
        var longestStreak: Int?
        var logs: Int?
        var unlocked: Int?
        var seen: Bool
    }

    static func overview(_ user: TestUser) async throws -> Overview? {
        try await LaurelTestDatabase.admin().withConnection { connection in
            try connection.query(
                """
                SELECT tier, status, level, xp, current_streak, longest_streak, logs, unlocked, last_seen IS NOT NULL AS seen
                  FROM laurel.user_overview WHERE name = $1::text
                """, [.text(user.name)]
            ).first.map { row in
                Overview(
                    tier: try row.optionalString("tier"), status: try row.optionalString("status"), level: try row.optionalInt("level"),
                    xp: try row.optionalInt("xp"), currentStreak: try row.optionalInt("current_streak"),
                    longestStreak: try row.optionalInt("longest_streak"), logs: try row.optionalInt("logs"),
                    unlocked: try row.optionalInt("unlocked"), seen: try row.bool("seen"))
            }
        }
    }

    @Test func userOverviewShowsTheEnginesFigures() async throws {
        let user = try await LaurelTestDatabase.createUser("overview")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            Engine.ok(try await client.request("LOG", Engine.log("pushups", amount: 100, at: TestClock.noon(daysAgo: 2))))
            Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 20, at: TestClock.noon(daysAgo: 1))))
            Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 20, at: TestClock.noon(daysAgo: 1, minute: 5))))
            let profile = Engine.ok(try await client.request("PROFILE"))
            // 30 for logs, 10 for two days, 100 for first_exercise and pushups_100.
            #expect(profile["xp"]?.intValue == 140)

            let row = try #require(try await Self.overview(user))
            #expect(row == Overview(
                tier: "free", status: "free", level: profile["level"]?.intValue, xp: 140,
                currentStreak: profile["streak"]?["current"]?.intValue, longestStreak: profile["streak"]?["longest"]?.intValue,
                logs: 3, unlocked: 2, seen: true))
            #expect(row.level == 2 && row.currentStreak == 2 && row.longestStreak == 2)
        }
    }

    @Test func userOverviewOfAUserWhoNeverLogged() async throws {
        let user = try await LaurelTestDatabase.createUser("overview-new")
        let row = try #require(try await Self.overview(user))
        #expect(row == Overview(
            tier: "free", status: "free", level: 1, xp: 0, currentStreak: 0, longestStreak: 0, logs: 0, unlocked: 0, seen: false))
    }

    @Test func achievementStatsCountUnlocks() async throws {
        let catalog = try ShippedCatalogs.load("standfit")
        let user = try await LaurelTestDatabase.createUser("stats")
        @Sendable func stats() async throws -> [String: (unlockedBy: Int, share: Double)] {
            try await LaurelTestDatabase.admin().withConnection { connection in
                var result: [String: (unlockedBy: Int, share: Double)] = [:]
                for row in try connection.query(
                    "SELECT achievement_id, unlocked_by, share_of_active_users_percent::float8 AS share FROM laurel.achievement_stats")
                {
                    result[try row.string("achievement_id")] = (try row.int("unlocked_by"), try row.double("share"))
                }
                return result
            }
        }
        try await TestServer.run { port in
            let before = try await stats()
            #expect(Set(catalog.achievements.map(\.id)).isSubset(of: Set(before.keys)))
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let answer = Engine.ok(try await client.request("EVENT", ["name": "invite"]))
            #expect(Engine.ids(answer["unlocked"]) == ["first_invite"])
            Engine.ok(try await client.request("LOG", Engine.log("lunges", at: TestClock.noon(daysAgo: 1))))

            let after = try await stats()
            // Other tests unlock too, so the counts only grow, by at least this user's unlocks.
            #expect((after["first_invite"]?.unlockedBy ?? 0) >= (before["first_invite"]?.unlockedBy ?? 0) + 1)
            #expect((after["first_exercise"]?.unlockedBy ?? 0) >= (before["first_exercise"]?.unlockedBy ?? 0) + 1)
            for (id, figures) in after {
                #expect((0...100).contains(figures.share), "\(id): \(figures.share)")
            }
            #expect((after["first_exercise"]?.share ?? 0) > 0)

            // Each count is the number of users with that unlock, at one instant.
            let mismatches = try await LaurelTestDatabase.scalar(
                """
                SELECT count(*) FROM laurel.achievement_stats s
                 WHERE s.unlocked_by <> (SELECT count(*) FROM laurel.unlocks u WHERE u.achievement_id = s.achievement_id)
                """)
            #expect(mismatches == "0")
        }
    }
}
