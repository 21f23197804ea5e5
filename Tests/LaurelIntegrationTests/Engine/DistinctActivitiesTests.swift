import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// `distinct_activities` (standfit's `try_everything`: squats, pushups, lunges, plank) counts the set's activities
/// with a live log, on every path the engine takes: a LOG decided in the session's memory, a LOG in a transaction (a
/// speed window needs its neighbours), a rebuild after LOG.DELETE or after a custom activity's deletion switched a
/// template off, and a rebuild from the stored facts at AUTH.
@Suite struct DistinctActivitiesTests {
    static func progress(_ client: PushRecorder, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int? {
        Engine.ok(try await client.request("ACHIEVEMENT", ["id": "try_everything"]), sourceLocation: sourceLocation)["progress"]?.intValue
    }

    @Test func theSetsActivitiesWithALiveLogCountOnEveryPath() async throws {
        let user = try await LaurelTestDatabase.createUser("distinct")
        let userID = PostgresValue.int(Int(user.id.rawValue))
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            // A speed window on lunges makes its LOGs take the transactional path; one on a custom activity that is
            // then deleted changes the windows the engine tracks.
            _ = try await Templates.created(app, Templates.create("lunges", "speed", tiers: Templates.tiers([1000], window: 10)))
            let kettlebell = try await Templates.activity(app, "Kettlebell")
            _ = try await Templates.created(app, Templates.create("Kettlebell", "speed", tiers: Templates.tiers([1000], window: 5)))

            Engine.ok(try await app.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 3), id: "d-squats")))
            Engine.ok(try await app.request("LOG", Engine.log("Pushups", at: TestClock.noon(daysAgo: 3, minute: 1))))
            #expect(try await Self.progress(app) == 2)
            Engine.ok(try await app.request("LOG", Engine.log("lunges", at: TestClock.noon(daysAgo: 2))))
            Engine.ok(try await app.request("LOG", Engine.log("Kettlebell", amount: 5, at: TestClock.noon(daysAgo: 2, minute: 1))))
            #expect(try await Self.progress(app) == 3)

            Engine.ok(try await app.request("ACTIVITY.DELETE", ["id": .string(kettlebell)]))
            #expect(try await Self.progress(app) == 3)
            #expect(try await app.request("ACTIVITY.DELETE", ["id": "squats"]).errorCode == "conflict", "built-ins stay")

            Engine.ok(try await app.request("LOG", Engine.log("plank", amount: 30, at: TestClock.noon(daysAgo: 1), id: "d-plank-1")))
            let fourth = Engine.ok(try await app.request("LOG", Engine.log("plank", amount: 30, at: TestClock.noon(daysAgo: 1, minute: 1))))
            #expect(try await Self.progress(app) == 4)
            #expect(Engine.ids(fourth["unlocked"]).isEmpty, "unlocked by the first plank")

            // Deletions rebuild: plank keeps a live log, squats has none left.
            Engine.ok(try await app.request("LOG.DELETE", ["id": "d-plank-1"]))
            #expect(try await Self.progress(app) == 4)
            Engine.ok(try await app.request("LOG.DELETE", ["id": "d-squats"]))
            #expect(try await Self.progress(app) == 3)
            #expect(Engine.ok(try await app.request("ACHIEVEMENT", ["id": "try_everything"]))["unlocked_at"] != nil)
            Engine.ok(try await app.request("ACTIVITY.RESTORE", ["id": .string(kettlebell)]))
            #expect(try await Self.progress(app) == 3)
            Engine.ok(try await app.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1, minute: 2))))
            #expect(try await Self.progress(app) == 4)
        }

        try await LaurelTestDatabase.scalar(
            "DELETE FROM laurel.progress_snapshots WHERE user_id = $1::bigint", [userID])
        try await TestServer.run { port in
            let again = try await PushRecorder.authenticated(port: port, token: user.token)
            #expect(try await Self.progress(again) == 4)
        }
    }
}
