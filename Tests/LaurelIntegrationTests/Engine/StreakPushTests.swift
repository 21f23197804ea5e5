import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// STREAK pushes follow the streak as backfilled logs repair and extend it, and rest days keep it safe.
@Suite struct StreakPushTests {
    static func streakEvents(_ recorder: PushRecorder) -> [(event: String, current: Int)] {
        recorder.pushes("STREAK").map {
            ($0.object["event"]?.stringValue ?? "", $0.object["streak"]?["current"]?.intValue ?? -1)
        }
    }

    @Test func backfillRepairsAndTodayExtends() async throws {
        let user = try await LaurelTestDatabase.createUser("streak-repair")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            // Two days ago alone: yesterday was missed with no freeze in hand, so nothing is running.
            let lone = Engine.ok(try await client.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 2))))
            #expect(lone["streak"]?["current"]?.intValue == 0)
            #expect(lone["streak"]?["longest"]?.intValue == 1)

            // Yesterday, backfilled, joins the two days.
            let repaired = Engine.ok(try await client.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1))))
            #expect(repaired["streak"] == [
                "current": 2, "longest": 2, "freezes": 0, "at_risk": true,
                "last_active_day": .string(TestClock.today().adding(days: -1).description),
            ])
            let today = Engine.ok(try await client.request("LOG", Engine.log("squats")))
            #expect(today["streak"]?["current"]?.intValue == 3)
            #expect(today["streak"]?["at_risk"] == false)
            #expect(today["streak"]?["last_active_day"]?.stringValue == TestClock.today().description)

            try await client.wait { $0.filter { $0.kind == "STREAK" }.count >= 2 }
            try await client.settle()
            let events = Self.streakEvents(client)
            #expect(events.map(\.event) == ["extended", "extended"])
            #expect(events.map(\.current) == [2, 3])

            // A second log today changes nothing worth showing.
            Engine.ok(try await client.request("LOG", Engine.log("pushups")))
            try await client.settle()
            #expect(Self.streakEvents(client).count == 2)
        }
    }

    @Test func aWeekBackfilledNewestFirstEarnsAFreeze() async throws {
        let user = try await LaurelTestDatabase.createUser("streak-week")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            var unlocked: [String] = []
            for daysAgo in stride(from: 1, through: 6, by: 1) {
                let answer = Engine.ok(try await client.request("LOG", Engine.log("lunges", at: TestClock.noon(daysAgo: daysAgo))))
                #expect(answer["streak"]?["current"]?.intValue == daysAgo)
                unlocked += Engine.ids(answer["unlocked"])
            }
            let seventh = Engine.ok(try await client.request("LOG", Engine.log("lunges")))
            unlocked += Engine.ids(seventh["unlocked"])
            #expect(seventh["streak"]?["current"]?.intValue == 7)
            #expect(seventh["streak"]?["freezes"]?.intValue == 1)
            // Today's log is made now, so the hour (early_bird, night_owl) and the weekday (perfect_week when today
            // is a Sunday) may add unlocks of their own.
            let dependOnTheClock: Set<String> = ["early_bird", "night_owl", "perfect_week"]
            #expect(unlocked.filter { !dependOnTheClock.contains($0) } == ["first_exercise", "streak_7"])

            try await client.wait { $0.filter { $0.kind == "STREAK" }.count >= 7 }
            try await client.settle()
            let events = Self.streakEvents(client)
            #expect(events.map(\.event) == Array(repeating: "extended", count: 6) + ["freeze_earned"])
            #expect(events.map(\.current) == Array(1...7))
            #expect(client.pushes("STREAK").last?.object["streak"]?["freezes"]?.intValue == 1)
        }
    }

    @Test func restDayAndVacationKeepTodaySafe() async throws {
        let user = try await LaurelTestDatabase.createUser("streak-rest")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let logged = Engine.ok(try await client.request("LOG", Engine.log("plank", amount: 60, at: TestClock.noon(daysAgo: 1))))
            #expect(logged["streak"]?["at_risk"] == true)

            let weekday = TestClock.today().weekday.name
            let settings = Engine.ok(try await client.request("SETTINGS", ["rest_day": .string(weekday)]))
            #expect(settings == ["time_zone": "UTC", "rest_day": .string(weekday), "vacation": false, "weekly_goal": 3, "reminder_window_minutes": 30, "leaderboards": true])
            var streak = Engine.ok(try await client.request("PROFILE"))["streak"]
            #expect(streak?["at_risk"] == false, "today is the rest day")
            #expect(streak?["current"]?.intValue == 1)

            Engine.ok(try await client.request("SETTINGS", ["rest_day": nil]))
            streak = Engine.ok(try await client.request("PROFILE"))["streak"]
            #expect(streak?["at_risk"] == true)

            let vacation = Engine.ok(try await client.request("SETTINGS", ["vacation": true]))
            #expect(vacation["vacation"] == true && vacation["rest_day"] == .null)
            streak = Engine.ok(try await client.request("PROFILE"))["streak"]
            #expect(streak?["at_risk"] == false, "today is a vacation day")
            #expect(streak?["current"]?.intValue == 1)
            #expect(Engine.ok(try await client.request("SETTINGS")) == ["time_zone": "UTC", "rest_day": nil, "vacation": true, "weekly_goal": 3, "reminder_window_minutes": 30, "leaderboards": true])

            // Settings changes are not streak changes worth a push.
            try await client.settle()
            #expect(Self.streakEvents(client).map(\.event) == ["extended"])
        }
    }
}
