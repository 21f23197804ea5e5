import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// What LOG and LOG.DELETE answer: the log, the unlocks in order, XP, level and streak; deletions lower XP but
/// keep unlocks, and a level reached again is not celebrated twice.
@Suite struct LogResponseTests {
    @Test func firstEarlyPushupsLog() async throws {
        let user = try await LaurelTestDatabase.createUser("log-answer")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let yesterday = TestClock.today().adding(days: -1)
            let at = TestClock.utc(yesterday, hour: 6, minute: 30)
            let answer = Engine.ok(try await client.request("LOG", Engine.log("Pushups", amount: 100, at: at, id: "early-100")))

            #expect(answer["log"] == [
                "id": "early-100", "activity": "pushups", "amount": 100, "at": TestClock.text(at), "day": .string(yesterday.description),
            ])
            #expect(answer["duplicate"] == false)
            // In unlock order, which is catalog order.
            #expect(Engine.ids(answer["unlocked"]) == ["first_exercise", "pushups_100", "early_bird"])
            let unlocked = (answer["unlocked"]?.arrayValue ?? []).compactMap(\.objectValue)
            #expect(unlocked.allSatisfy { $0["unlocked_at"]?.stringValue != nil && $0["hidden"] == false })
            #expect(unlocked.first { $0["id"]?.stringValue == "pushups_100" }?["progress"]?.intValue == 100)
            // 10 for the log, 5 for the day, 3 * 50 for the unlocks.
            #expect(answer["xp"]?.intValue == 165)
            #expect(answer["level"]?.intValue == 2)
            #expect(answer["streak"] == [
                "current": 1, "longest": 1, "freezes": 0, "at_risk": true, "last_active_day": .string(yesterday.description),
            ])

            let pushes = try await client.wait { $0.count >= 5 }
            #expect(pushes.map(\.kind).sorted() == ["LEVEL", "STREAK", "UNLOCK", "UNLOCK", "UNLOCK"])
            #expect(client.unlockedIDs == ["first_exercise", "pushups_100", "early_bird"])
            #expect(client.seqs == [1, 2, 3, 4, 5])
            #expect(client.pushes("LEVEL").map { Engine.withoutSeq($0.object) } == [["level": 2, "xp": 165]])
            #expect(client.pushes("STREAK").first?.object["event"]?.stringValue == "extended")
            #expect(client.pushes("STREAK").first?.object["streak"] == answer["streak"])
            for (push, listed) in zip(client.pushes("UNLOCK"), unlocked) {
                #expect(Engine.withoutSeq(push.object) == listed)
            }

            let profile = Engine.ok(try await client.request("PROFILE"))
            #expect(profile["xp"]?.intValue == 165)
            #expect(profile["level"]?.intValue == 2)
            #expect(profile["xp_to_next_level"]?.intValue == 250 - 165)
            #expect(profile["totals"] == ["logs": 1, "active_days": 1, "by_activity": ["pushups": 100]])
            #expect(profile["unlocked"]?.intValue == 3)

            // Deleting the log takes its 15 XP away but none of the unlocks.
            let deleted = Engine.ok(try await client.request("LOG.DELETE", ["id": "early-100"]))
            #expect(deleted["log"]?["id"]?.stringValue == "early-100")
            #expect(deleted["xp"]?.intValue == 150)
            #expect(deleted["level"]?.intValue == 2)
            #expect(deleted["streak"] == ["current": 0, "longest": 0, "freezes": 0, "at_risk": false])
            let listed = Engine.ok(try await client.request("ACHIEVEMENTS", ["status": "unlocked"]))
            #expect(Set(Engine.ids(listed["achievements"])) == ["first_exercise", "pushups_100", "early_bird"])
            #expect(Engine.byID(listed)["pushups_100"]?["progress"]?.intValue == 0)
            let after = Engine.ok(try await client.request("PROFILE"))
            #expect(after["xp"]?.intValue == 150)
            #expect(after["unlocked"]?.intValue == 3)
            #expect(after["totals"] == ["logs": 0, "active_days": 0, "by_activity": [:]])

            let again = try await client.request("LOG.DELETE", ["id": "early-100"])
            #expect(again.errorCode == "not_found")
            try await client.settle()
            // A deletion is a correction, not news: no unlock, no level and no streak event (in particular not
            // `broken`, which the rules reserve for a missed day without a freeze).
            #expect(client.pushes.count == 5, "a deletion pushes nothing: \(client.pushes.dropFirst(5).map(\.raw))")
        }
    }

    @Test func levelReachedAgainAfterADeleteIsNotPushedAgain() async throws {
        let user = try await LaurelTestDatabase.createUser("level-again")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            // One day of squats: 10 a log + 5 for the day + 50 for first_exercise.
            var xps: [Int] = []
            var levels: [Int] = []
            for minute in 0..<5 {
                let answer = Engine.ok(try await client.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1, minute: minute), id: "squat-\(minute)")))
                xps.append(answer["xp"]?.intValue ?? -1)
                levels.append(answer["level"]?.intValue ?? -1)
            }
            #expect(xps == [65, 75, 85, 95, 105])
            #expect(levels == [1, 1, 1, 1, 2])
            let level = try await client.wait { $0.contains { $0.kind == "LEVEL" } }.first { $0.kind == "LEVEL" }
            #expect(level.map { Engine.withoutSeq($0.object) } == ["level": 2, "xp": 105])

            let deleted = Engine.ok(try await client.request("LOG.DELETE", ["id": "squat-4"]))
            #expect(deleted["xp"]?.intValue == 95)
            #expect(deleted["level"]?.intValue == 1)
            let profile = Engine.ok(try await client.request("PROFILE"))
            #expect(profile["level"]?.intValue == 1)
            #expect(profile["xp_to_next_level"]?.intValue == 5)

            let back = Engine.ok(try await client.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1, minute: 9))))
            #expect(back["xp"]?.intValue == 105)
            #expect(back["level"]?.intValue == 2)
            try await client.settle()
            #expect(client.pushes("LEVEL").count == 1, "\(client.pushes.map(\.raw))")
            let stored = try await LaurelTestDatabase.scalar(
                "SELECT count(*) FROM laurel.pushes WHERE user_id = $1::bigint AND kind = 'LEVEL'", [.int(Int(user.id.rawValue))])
            #expect(stored == "1")

            // A retry of the deleted log's id does not log it again.
            let retry = Engine.ok(try await client.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1, minute: 4), id: "squat-4")))
            #expect(retry["duplicate"] == true)
            let final = Engine.ok(try await client.request("PROFILE"))
            #expect(final["xp"]?.intValue == 105)
            #expect(final["totals"]?["logs"]?.intValue == 5)
        }
    }
}
