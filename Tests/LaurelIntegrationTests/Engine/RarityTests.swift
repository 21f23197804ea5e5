import Foundation
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// `rarity` in ACHIEVEMENT objects (rules.md, "Rarity"): for built-in achievements the share of users active in the
/// last 30 days who have them, as the store computes it (read in the background, here every 200 ms); `null` for a
/// template's achievements.
@Suite struct RarityTests {
    @Test func builtInAchievementsShowTheirRarityAndTemplatesNone() async throws {
        let user = try await LaurelTestDatabase.createUser("rarity")
        var configuration = ServerConfiguration(port: 0)
        configuration.rarityRefreshInterval = .milliseconds(200)
        try await TestServer.withServer(configuration: configuration) { server in
            let app = try await PushRecorder.authenticated(port: server.port, token: user.token)
            let logged = Engine.ok(try await app.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1))))
            let unlocked = try #require(logged["unlocked"]?.arrayValue?.first?.objectValue)
            #expect(unlocked["id"] == "first_exercise" && unlocked["rarity"]?.doubleValue != nil)

            // Other tests' users come and go: the server's figure catches up with the store's within a few readings.
            let agrees = try await Eventually.holds(timeout: .seconds(20), every: .milliseconds(100)) {
                let stored = try await LaurelTestDatabase.scalar(
                    "SELECT rarity::text FROM laurel.achievement_rarity() WHERE achievement_id = 'first_exercise'").flatMap(Double.init)
                let shown = Engine.ok(try await app.request("ACHIEVEMENT", ["id": "first_exercise"]))["rarity"]?.doubleValue
                return stored != nil && stored == shown && (stored ?? 0) > 0 && (stored ?? 2) <= 1
            }
            #expect(agrees)
            let listed = Engine.ok(try await app.request("ACHIEVEMENTS"))["achievements"]?.arrayValue ?? []
            #expect(listed.allSatisfy { ($0.objectValue?["rarity"]?.doubleValue).map { (0...1).contains($0) } ?? false })

            try await Templates.startTrial(app)
            let (template, _) = try await Templates.created(app, Templates.create("squats", "volume"))
            #expect(Templates.achievements(template).allSatisfy { $0["rarity"] == .null })
        }
    }
}
