import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// A progressive template over real sockets and PostgreSQL: the default tiers, then doubling targets unlocked in one
/// LOG as far as the total reaches, each pushed, with the next one listed; a new session (after a restart) lists the
/// same from the stored unlocks; exported and imported with its type.
@Suite struct ProgressiveTemplateTests {
    @Test func targetsBeyondTheTiersAreUnlockedAndTheNextIsListed() async throws {
        let user = try await LaurelTestDatabase.createUser("progressive")
        let id = try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            let (template, id) = try await Templates.created(app, Templates.create("pushups", "progressive"))
            #expect(template["type"] == "progressive")
            #expect(Templates.achievements(template).map { $0["target"]?.intValue ?? 0 } == [50, 100, 500, 1000, 2000])

            let logged = Engine.ok(try await app.request("LOG", Engine.log("pushups", amount: 4500, at: TestClock.noon(daysAgo: 1))))
            let prefix = "tpl.\(id)."
            #expect(Engine.ids(logged["unlocked"]).filter { $0.hasPrefix(prefix) } == [50, 100, 500, 1000, 2000, 4000].map { prefix + String($0) })
            let pushes = try await app.wait { Templates.unlocks($0, template: id).count >= 6 }
            let generated = Templates.unlocks(pushes, template: id).last
            #expect(generated?["name"] == "Pushups 4000" && generated?["tier"] == "platinum")
            let listed = try #require(Templates.list(try await app.request("TEMPLATES")).first)
            #expect(Templates.achievements(listed).map { $0["target"]?.intValue ?? 0 } == [50, 100, 500, 1000, 2000, 4000, 8000])
            return id
        }
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            let next = Engine.ok(try await app.request("ACHIEVEMENT", ["id": .string("tpl.\(id).8000"), "explain": true]))
            #expect(next["progress"] == 4500 && next["explain"]?["remaining"] == 3500)
            let exported = Engine.ok(try await app.request("TEMPLATE.EXPORT"))
            #expect(exported["templates"]?.arrayValue?.first?["type"] == "progressive")
        }
    }
}
