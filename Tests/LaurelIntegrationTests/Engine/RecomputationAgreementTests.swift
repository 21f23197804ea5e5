import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelServer
import LaurelTestSupport
import Testing

/// The server evaluates incrementally, inside each write; recomputing from the stored rows with the pure core must
/// give the same figures, whatever the order of backfills, deletions, settings changes and reminders, in any time zone.
@Suite struct RecomputationAgreementTests {
    static let activities = ["squats", "pushups", "lunges", "plank"]

    @Test(arguments: [("America/St_Johns", UInt64(7)), ("Pacific/Kiritimati", UInt64(11)), ("Asia/Kathmandu", UInt64(23))])
    func profileAndProgressMatchRecomputation(zoneName: String, seed: UInt64) async throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let catalog = try ShippedCatalogs.load("standfit")
        let user = try await LaurelTestDatabase.createUser("recompute", timeZone: zoneName)
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            var random = SeededRandom(seed: seed)
            var live: [String] = []
            let now = Date()
            for step in 0..<42 {
                if step % 3 == 1 {
                    // A reminder somewhere in the last 25 days: some answered by logs around it, some not.
                    let at = now.addingTimeInterval(-Double(Int.random(in: 3600...(25 * 86_400), using: &random)))
                    Engine.ok(try await client.request("REMINDER", ["id": .string("rem\(seed)-\(step)"), "at": TestClock.text(at)]))
                    if step % 2 == 1 {
                        let answer = "ans\(seed)-\(step)"
                        Engine.ok(try await client.request("LOG", Engine.log("plank", at: at.addingTimeInterval(300), id: answer)))
                        live.append(answer)
                    }
                }
                if step % 7 == 6, let victim = live.randomElement(using: &random) {
                    let deleted = Engine.ok(try await client.request("LOG.DELETE", ["id": .string(victim)]))
                    #expect(deleted["log"]?["id"]?.stringValue == victim)
                    live.removeAll { $0 == victim }
                } else {
                    // Anywhere in the last 25 days (a backfill), at any time of day, or just now.
                    let seconds = step % 5 == 0 ? 60 : Int.random(in: 120...(25 * 86_400), using: &random)
                    let at = now.addingTimeInterval(-Double(seconds))
                    let activity = Self.activities.randomElement(using: &random)!
                    let id = "r\(seed)-\(step)"
                    let answer = Engine.ok(try await client.request(
                        "LOG", Engine.log(activity, amount: Int.random(in: 1...40, using: &random), at: at, id: id)))
                    // The day is the local date of `at` in the user's zone.
                    #expect(answer["log"]?["day"]?.stringValue == LocalDay(of: at, in: zone).description)
                    live.append(id)
                }
                switch step {
                case 15:
                    let weekday = LocalDay(of: now, in: zone).adding(days: 2).weekday
                    Engine.ok(try await client.request("SETTINGS", ["rest_day": .string(weekday.name)]))
                case 20:
                    Engine.ok(try await client.request("SETTINGS", ["weekly_goal": .int(1 + Int(seed % 4))]))
                case 24:
                    Engine.ok(try await client.request("SETTINGS", ["vacation": true]))
                case 27:
                    Engine.ok(try await client.request("SETTINGS", ["vacation": false]))
                default:
                    break
                }
                if step % 10 == 9 {
                    try await RecomputedProgress.read(user, zone: zone, catalog: catalog)
                        .expectAgreement(with: client, catalog: catalog, "\(zoneName) after step \(step)")
                }
            }
            let final = try await RecomputedProgress.read(user, zone: zone, catalog: catalog)
            #expect(final.logs.count == live.count)
            for log in final.logs {
                // Stored day and hour are the user's local reading of `at`.
                let local = LocalDateTime(of: log.at, in: zone)
                #expect(log.day == local.day && log.localHour == local.hour, "\(log.id)")
            }
            try await final.expectAgreement(with: client, catalog: catalog, "\(zoneName) at the end")

            // Without the stored running state the server rebuilds it, and nothing changes.
            let profile = Engine.ok(try await client.request("PROFILE"))
            let achievements = Engine.ok(try await client.request("ACHIEVEMENTS", ["include_hidden": true]))
            try await LaurelTestDatabase.scalar(
                "DELETE FROM laurel.progress_snapshots WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
            #expect(Engine.ok(try await client.request("PROFILE")) == profile)
            #expect(Engine.ok(try await client.request("ACHIEVEMENTS", ["include_hidden": true])) == achievements)

            // And a write on top of the missing state agrees too.
            Engine.ok(try await client.request("LOG", Engine.log("plank", amount: 30, at: now.addingTimeInterval(-3 * 86_400), id: "after-reset")))
            try await RecomputedProgress.read(user, zone: zone, catalog: catalog)
                .expectAgreement(with: client, catalog: catalog, "\(zoneName) after a log on a rebuilt state")
            try await LaurelTestDatabase.scalar(
                "DELETE FROM laurel.progress_snapshots WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
            Engine.ok(try await client.request("LOG.DELETE", ["id": "after-reset"]))
            try await RecomputedProgress.read(user, zone: zone, catalog: catalog)
                .expectAgreement(with: client, catalog: catalog, "\(zoneName) after a delete on a rebuilt state")
        }
    }
}
