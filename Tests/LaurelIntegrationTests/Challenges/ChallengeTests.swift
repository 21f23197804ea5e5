import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// Daily and weekly challenges over real sockets (rules.md "Challenges", protocol.md CHALLENGES and `CHALLENGE`).
@Suite struct ChallengeTests {
    @Test func threeDailyKindsAndOneWeekly() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-kinds")
        try await TestServer.run(challenges: true) { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let answer = try await Challenges.read(client)
            let today = TestClock.today()
            #expect(answer["day"]?.stringValue == today.description)
            #expect(answer["week"]?.stringValue == today.isoWeek.description)
            let daily = Challenges.daily(answer)
            #expect(daily.count == 3)
            #expect(Set(daily.compactMap { $0["kind"]?.stringValue }).count == 3, "three different kinds: \(daily)")
            for challenge in daily {
                #expect(challenge["period"]?.stringValue == "daily")
                #expect(challenge["period_start"]?.stringValue == today.description)
                #expect(challenge["progress"]?.intValue == 0)
                #expect(challenge["completed_at"] == nil)
                #expect((challenge["target"]?.intValue ?? 0) >= 1)
                #expect(challenge["kind"]?.stringValue != "keep_streak", "a new user has no streak to keep")
                let title = challenge["title"]?.stringValue ?? "{n}"
                #expect(title.contains("{") == false, "placeholders are filled")
            }
            let weekly = Challenges.weekly(answer)
            #expect(weekly.count == 1)
            #expect(weekly.first?["kind"]?.stringValue == "active_days_week")
            #expect(weekly.first?["period_start"]?.stringValue == today.isoWeek.monday.description)
            // The default, capped late in the week at the days left, today included (3 from Monday to Friday).
            let daysLeft = today.isoWeek.monday.adding(days: 6).daysSince1970 - today.daysSince1970 + 1
            #expect(weekly.first?["target"]?.intValue == min(3, daysLeft), "a new user's weekly target is the default")
            // Asking again answers the same.
            #expect(try await Challenges.read(client) == answer)
        }
    }

    @Test func everyConnectionAndInstanceSeesTheSameChallenges() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-same")
        try await TestServer.withServer(challenges: true) { first in
            try await TestServer.withServer(challenges: true) { second in
                let clients = [
                    try await PushRecorder.authenticated(port: first.port, token: user.token),
                    try await PushRecorder.authenticated(port: first.port, token: user.token),
                    try await PushRecorder.authenticated(port: second.port, token: user.token),
                    try await PushRecorder.authenticated(port: second.port, token: user.token),
                ]
                // All at once: whoever chooses first, the others get that choice.
                let answers = try await withThrowingTaskGroup(of: JSONObject.self) { group in
                    for client in clients { group.addTask { try await Challenges.read(client) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.count == 4)
                #expect(Set(answers.map { JSONValue.object($0).serialized() }).count == 1, "\(answers)")
                #expect(try await LaurelTestDatabase.count(
                    "SELECT count(*) FROM laurel.challenges WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))]) == 4)
            }
        }
    }

    @Test func backfillsAndSettingsLaterTheSameDayKeepTheChallenges() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-stable")
        try await TestServer.run(challenges: true) { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let before = try await Challenges.read(client)
            // A history that would make other targets and other choices, had it been there first.
            for daysAgo in 1...6 {
                for activity in Challenges.standfitActivities {
                    Engine.ok(try await client.request("LOG", Engine.log(activity, amount: 40, at: TestClock.noon(daysAgo: daysAgo))))
                }
            }
            Engine.ok(try await client.request("SETTINGS", ["rest_day": .string(TestClock.today().weekday.name)]))
            let after = try await Challenges.read(client)
            #expect((Challenges.daily(after) + Challenges.weekly(after)).map(Challenges.identity)
                == (Challenges.daily(before) + Challenges.weekly(before)).map(Challenges.identity))
            // A new connection (a session loaded afresh) sees them too.
            let fresh = try await PushRecorder.authenticated(port: port, token: user.token)
            #expect(try await Challenges.read(fresh) == after)
        }
    }

    @Test func aNewLocalDayBringsNewChallengesAndThePastDayStaysReadable() async throws {
        // Kiritimati is 25 hours ahead of Pago Pago: moving there always moves the user's local day on.
        let user = try await LaurelTestDatabase.createUser("challenge-new-day", timeZone: "Pacific/Pago_Pago")
        try await TestServer.run(challenges: true) { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let first = try await Challenges.read(client)
            let firstDay = try #require(first["day"]?.stringValue)
            Engine.ok(try await client.request("SETTINGS", ["time_zone": "Pacific/Kiritimati"]))
            let next = try await Challenges.read(client)
            let nextDay = try #require(next["day"]?.stringValue)
            #expect(nextDay > firstDay)
            #expect(nextDay == TestClock.today(in: TimeZone(identifier: "Pacific/Kiritimati")!).description)
            #expect(Challenges.daily(next).count == 3)
            #expect(Challenges.daily(next).allSatisfy { $0["period_start"]?.stringValue == nextDay })
            let nextIDs = Set(Challenges.daily(next).compactMap { $0["id"]?.stringValue })
            #expect(nextIDs.isDisjoint(with: Challenges.daily(first).compactMap { $0["id"]?.stringValue }))

            // The day before is read as it was stored.
            let past = try await Challenges.read(client, day: firstDay)
            #expect(past["day"]?.stringValue == firstDay)
            #expect(Challenges.daily(past).map(Challenges.identity) == Challenges.daily(first).map(Challenges.identity))
            // A day that never had challenges has none; tomorrow and long ago are refused.
            let quiet = try #require(LocalDay(firstDay)).adding(days: -3).description
            #expect(Challenges.daily(try await Challenges.read(client, day: quiet)).isEmpty)
            let tomorrow = try #require(LocalDay(nextDay)).adding(days: 1).description
            #expect(try await client.request("CHALLENGES", ["day": .string(tomorrow)]).errorField == "day")
            let longAgo = try #require(LocalDay(nextDay)).adding(days: -31).description
            #expect(try await client.request("CHALLENGES", ["day": .string(longAgo)]).errorField == "day")
            #expect(try await client.request("CHALLENGES", ["day": "yesterday"]).errorField == "day")
        }
    }

    @Test func aChallengeCompletedByTwoConnectionsAtOnceIsPushedOnceAndPaysOnce() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-once")
        try await TestServer.run(challenges: true) { port in
            let first = try await PushRecorder.authenticated(port: port, token: user.token)
            let second = try await PushRecorder.authenticated(port: port, token: user.token)
            let answer = try await Challenges.read(first)
            let (challenge, logs) = try #require(Challenges.daily(answer).lazy.compactMap { challenge in
                Challenges.completingLogs(challenge, idPrefix: "a").map { (challenge, $0) }
            }.first)
            let id = try #require(challenge["id"]?.stringValue)
            let otherLogs = try #require(Challenges.completingLogs(challenge, idPrefix: "b"))
            // Each connection sends a full set of completing logs, pipelined, both at once.
            async let a = first.client.pipeline(logs.map { ("LOG", $0) })
            async let b = second.client.pipeline(otherLogs.map { ("LOG", $0) })
            let answers = try await a + b
            let refused = answers.filter { !$0.isOK }.map(\.raw)
            #expect(refused.isEmpty)

            let notifications = Engine.ok(try await first.request("NOTIFICATIONS"))
            let stored = (notifications["notifications"]?.arrayValue ?? []).compactMap(\.objectValue)
                .filter { $0["kind"]?.stringValue == "CHALLENGE" && $0["data"]?["id"]?.stringValue == id }
            #expect(stored.count == 1, "one stored CHALLENGE push for \(id): \(stored)")
            let lastSeq = notifications["last_seq"]?.intValue ?? 0
            for connection in [first, second] {
                let pushes = try await connection.wait { $0.compactMap { $0.object["seq"]?.intValue }.contains(lastSeq) }
                let challengePushes = pushes.filter { $0.kind == "CHALLENGE" && $0.object["id"]?.stringValue == id }
                #expect(challengePushes.count == 1, "each connection gets the push once")
                #expect(challengePushes.first?.object["completed_at"] != nil)
                #expect(challengePushes.first?.object["progress"] == challenge["target"])
            }

            let after = try await Challenges.read(first)
            let completed = try #require((Challenges.daily(after)).first { $0["id"]?.stringValue == id })
            #expect(completed["completed_at"] != nil)
            let storedCompleted = try await LaurelTestDatabase.count(
                "SELECT count(*) FROM laurel.challenges WHERE user_id = $1::bigint AND completed_at IS NOT NULL",
                [.int(Int(user.id.rawValue))])
            #expect(storedCompleted == (Challenges.daily(after) + Challenges.weekly(after)).filter { $0["completed_at"] != nil }.count)

            // The operators' overview counts today's completed daily challenges.
            let overview = try await LaurelTestDatabase.count(
                "SELECT challenges_completed_today FROM laurel.user_overview WHERE name = $1::text", [.text(user.name)])
            #expect(overview == Challenges.daily(after).filter { $0["completed_at"] != nil }.count)
            #expect(overview >= 1)

            // XP counts the challenge XP once; the level follows it.
            let profile = Engine.ok(try await first.request("PROFILE"))
            let logCount = answers.count
            let unlocked = profile["unlocked"]?.intValue ?? 0
            let expected = 10 * logCount + 5 * 1 + 50 * unlocked + Challenges.completedXP([after])
            #expect(profile["xp"]?.intValue == expected, "\(profile) \(after)")
            #expect(profile["level"]?.intValue == LevelCurve.level(forXP: expected))

            // Completion is for good: deleting the logs that completed it lowers the progress, not the completion or its XP.
            for log in logs { Engine.ok(try await first.request("LOG.DELETE", ["id": log["id"] ?? .null])) }
            let afterDeletes = try await Challenges.read(first)
            let kept = try #require(Challenges.daily(afterDeletes).first { $0["id"]?.stringValue == id })
            #expect(kept["completed_at"] == completed["completed_at"])
            #expect(Challenges.completedXP([afterDeletes]) == Challenges.completedXP([after]))
            let profileAfter = Engine.ok(try await first.request("PROFILE"))
            let unlockedAfter = profileAfter["unlocked"]?.intValue ?? 0
            #expect(profileAfter["xp"]?.intValue == 10 * (logCount - logs.count) + 5 + 50 * unlockedAfter + Challenges.completedXP([afterDeletes]))
        }
    }

    @Test func targetsFollowTheUsersRecentDays() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-targets")
        try await TestServer.run(challenges: true) { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            // Ten active days before today, each with ten logs of 10 pushups: the user's level is 10 logs and 100
            // pushups a day, one activity a day. Oldest first: the first log of this week chooses the week's challenge
            // from the weeks before, complete by then; a backfill chooses no daily challenges for today.
            let today = TestClock.today()
            var lines: [(verb: String, argument: JSONObject?)] = []
            for daysAgo in (1...10).reversed() {
                for minute in 0..<10 { lines.append(("LOG", Engine.log("pushups", amount: 10, at: TestClock.noon(daysAgo: daysAgo, minute: minute)))) }
            }
            let answers = try await client.client.pipeline(lines)
            let refused = answers.filter { !$0.isOK }.map(\.raw)
            #expect(refused.isEmpty)
            let answer = try await Challenges.read(client)
            for challenge in Challenges.daily(answer) {
                switch challenge["kind"]?.stringValue {
                case "logs_today": #expect(challenge["target"]?.intValue == 12, "1.2 x the median of 10 logs")
                case "amount_today":
                    #expect(challenge["activity"]?.stringValue == "pushups", "the activity logged lately")
                    #expect(challenge["target"]?.intValue == 120, "1.2 x the median of 100 pushups")
                    #expect(challenge["title"]?.stringValue == "Do 120 Pushups today")
                case "distinct_today": #expect(challenge["target"]?.intValue == 2, "1.2 x 1, raised to the minimum")
                default: break
                }
            }
            // Weekly: the active days of the previous ISO week, plus one.
            let monday = today.isoWeek.monday
            let previousWeek = (1...10).map { today.adding(days: -$0) }.filter { $0 < monday && $0 >= monday.adding(days: -7) }.count
            let weekly = try #require(Challenges.weekly(answer).first)
            // Chosen by the first backfill into this week (its own day then the only active one of the week so far),
            // or by CHALLENGES on a Monday; a target chosen late in the week is capped at what is still reachable.
            let activeWhenChosen = (1...10).map { today.adding(days: -$0) }.contains { $0 >= monday } ? 1 : 0
            let reachable = activeWhenChosen + (monday.adding(days: 6).daysSince1970 - today.daysSince1970 + 1)
            #expect(weekly["target"]?.intValue == min(min(7, max(2, previousWeek + 1)), reachable))
        }
    }

    @Test func aRestDayDoesNotKeepTheStreakChallenge() async throws {
        try await TestServer.run(challenges: true) { port in
            // keep_streak is offered to users with a streak; which users get it depends on their id.
            var found: (PushRecorder, JSONObject)?
            for _ in 0..<40 where found == nil {
                let user = try await LaurelTestDatabase.createUser("challenge-streak")
                let client = try await PushRecorder.authenticated(port: port, token: user.token)
                Engine.ok(try await client.request("LOG", Engine.log("plank", amount: 30, at: TestClock.noon(daysAgo: 1))))
                Engine.ok(try await client.request("SETTINGS", ["rest_day": .string(TestClock.today().weekday.name)]))
                let answer = try await Challenges.read(client)
                if let keep = Challenges.daily(answer).first(where: { $0["kind"]?.stringValue == "keep_streak" }) {
                    found = (client, keep)
                }
            }
            let (client, keep) = try #require(found, "no user among 40 got keep_streak")
            let id = keep["id"]?.stringValue
            // Today is the user's rest day: the streak is safe, but the challenge asks for activity.
            #expect(keep["progress"]?.intValue == 0)
            #expect(keep["completed_at"] == nil)
            let profile = Engine.ok(try await client.request("PROFILE"))
            #expect(profile["streak"]?["current"]?.intValue == 1)

            Engine.ok(try await client.request("LOG", Engine.log("plank", amount: 30)))
            let after = try await Challenges.read(client)
            let kept = try #require(Challenges.daily(after).first { $0["id"]?.stringValue == id })
            #expect(kept["progress"]?.intValue == 1)
            #expect(kept["completed_at"] != nil)
            try await client.wait { $0.contains { $0.kind == "CHALLENGE" && $0.object["id"]?.stringValue == id } }
        }
    }

    @Test func theAccountExportHoldsTheChallengesAndDeletionRemovesThem() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-account")
        try await TestServer.run(challenges: true) { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let answer = try await Challenges.read(client)
            let exported = Engine.ok(try await client.request("ACCOUNT.EXPORT"))
            let listed = (exported["challenges"]?.arrayValue ?? []).compactMap(\.objectValue)
            #expect(listed.count == 4)
            let ids = Set(listed.compactMap { object -> String? in
                guard let period = object["period"]?.stringValue, let start = object["period_start"]?.stringValue,
                      let slot = object["slot"]?.intValue else { return nil }
                return "\(period)-\(start)-\(slot)"
            })
            #expect(ids == Set((Challenges.daily(answer) + Challenges.weekly(answer)).compactMap { $0["id"]?.stringValue }))

            Engine.ok(try await client.request("ACCOUNT.DELETE", ["confirm": .string(user.name)]))
            let remaining = try await LaurelTestDatabase.count(
                "SELECT count(*) FROM laurel.challenges WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
            #expect(remaining == 0)
        }
    }

    @Test func theMindfulPoolCountsSessionsMinutesAndLessons() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-mindful")
        try await TestServer.run(catalog: "mindful", challenges: true) { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let answer = try await Challenges.read(client)
            // A new user has no streak to keep: the other three daily kinds of the pool.
            #expect(Set(Challenges.daily(answer).compactMap { $0["kind"]?.stringValue }) == ["sessions_today", "minutes_today", "lesson_today"])
            Engine.ok(try await client.request("LESSON.DONE", ["lesson": "basics-1"]))
            Engine.ok(try await client.request("LOG", Engine.log("meditation", amount: 10)))
            let after = try await Challenges.read(client)
            for challenge in Challenges.daily(after) {
                #expect(challenge["completed_at"] != nil, "\(challenge)")
                #expect(challenge["progress"] == challenge["target"])
            }
            // The daily ones; on a Sunday the week's challenge, capped at the one day left, is completed too.
            func daily(_ pushes: [LineClient.Line]) -> [LineClient.Line] { pushes.filter { $0.kind == "CHALLENGE" && $0.object["period"]?.stringValue == "daily" } }
            let daily = daily(try await client.wait { daily($0).count >= 3 })
            #expect(Set(daily.compactMap { $0.object["kind"]?.stringValue }) == ["sessions_today", "minutes_today", "lesson_today"])
        }
    }
}
