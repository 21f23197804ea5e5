import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// rules.md: when a catalog gains an achievement, users who already meet it unlock it at their next evaluation, at
/// the latest when they next authenticate. AUTH evaluates from the session's progress and writes only when that
/// changes something.
@Suite struct AuthCatchUpTests {
    @Test func anAchievementMetBeforeItExistedUnlocksAtTheNextAuth() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-catch-up")
        let userID = PostgresValue.int(Int(user.id.rawValue))
        try await TestServer.run { port in
            let first = try await LineClient.authenticated(port: port, token: user.token)
            Engine.ok(try await first.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 1))))
        }
        // As if the catalog had gained `first_exercise` after the user met it: no unlock row, no push.
        try await LaurelTestDatabase.scalar(
            "DELETE FROM laurel.unlocks WHERE user_id = $1::bigint AND achievement_id = 'first_exercise'", [userID])
        // A server that holds nothing of the user.
        try await TestServer.run { port in
            let again = try await PushRecorder.authenticated(port: port, token: user.token)
            let pushes = try await again.wait { $0.contains { $0.kind == "UNLOCK" } }
            #expect(pushes.filter { $0.kind == "UNLOCK" }.compactMap { $0.object["id"]?.stringValue } == ["first_exercise"])
            #expect(try await LaurelTestDatabase.count(
                "SELECT count(*) FROM laurel.unlocks WHERE user_id = $1::bigint AND achievement_id = 'first_exercise'", [userID]) == 1)
        }
    }

    @Test func anAuthWithNothingToCatchUpWritesNothing() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-quiet")
        let userID = PostgresValue.int(Int(user.id.rawValue))
        try await TestServer.run { port in
            let first = try await LineClient.authenticated(port: port, token: user.token)
            Engine.ok(try await first.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 1))))
            Engine.ok(try await first.request("PING"))
            let version = try await LaurelTestDatabase.count("SELECT version FROM laurel.progress WHERE user_id = $1::bigint", [userID])

            let second = try await LineClient.authenticated(port: port, token: user.token)
            Engine.ok(try await second.request("PING"))  // answered after the AUTH's catch-up
            #expect(try await LaurelTestDatabase.count("SELECT version FROM laurel.progress WHERE user_id = $1::bigint", [userID]) == version)
        }
    }
}
