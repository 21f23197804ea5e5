import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// REMINDER and the reminder streak over real sockets and PostgreSQL: reminders answered by a log in their window
/// (one stored before or after them), pending while the window is open, missed after; repeats answered with the state
/// now; a deleted answering log undoing the answer; the window a setting; vacation days skipped; 48 a day; PROFILE
/// always equal to a recomputation from the stored rows.
@Suite struct ReminderTests {
    static let standfit = try! ShippedCatalogs.load("standfit")

    static func reminder(_ client: PushRecorder, id: String, at: Date?) async throws -> LineClient.Line {
        var argument: JSONObject = ["id": .string(id)]
        if let at { argument["at"] = TestClock.text(at) }
        return try await client.client.request("REMINDER", argument)
    }

    static func rstreak(_ client: PushRecorder) async throws -> JSONValue? {
        Engine.ok(try await client.request("PROFILE"))["reminder_streak"]
    }

    @Test func remindersAreAnsweredPendingOrMissedAndTheStreakFollows() async throws {
        // Midday in the user's zone: the window set today covers reminders of three hours ago, whenever the test runs.
        let zone = TestClock.zoneWhereItIsMidday()
        let user = try await LaurelTestDatabase.createUser("reminders", timeZone: zone)
        let now = Date()
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            #expect(Engine.ok(try await client.request("SETTINGS", ["reminder_window_minutes": 60]))["reminder_window_minutes"] == 60)

            // Shown 50 minutes ago, nothing logged since: pending until its hour is over.
            let shown = now.addingTimeInterval(-50 * 60)
            let pending = Engine.ok(try await Self.reminder(client, id: "r1", at: shown))
            #expect(pending["reminder"]?["state"] == "pending")
            #expect(pending["reminder"]?["window_ends_at"] == TestClock.text(shown.addingTimeInterval(3600)))
            #expect(pending["duplicate"] == false)
            #expect(pending["reminder_streak"] == ["current": 0, "longest": 0, "pending": 1])

            // A log now answers it.
            Engine.ok(try await client.request("LOG", Engine.log("squats", id: "now")))
            #expect(try await Self.rstreak(client) == ["current": 1, "longest": 1, "pending": 0])
            let again = Engine.ok(try await Self.reminder(client, id: "r1", at: shown))
            #expect(again["duplicate"] == true && again["reminder"]?["state"] == "answered")
            let conflict = try await Self.reminder(client, id: "r1", at: shown.addingTimeInterval(-60))
            #expect(conflict.errorCode == "conflict")

            // Three hours ago, nothing logged in its window: missed, and first in `at` order.
            let early = now.addingTimeInterval(-3 * 3600)
            #expect(Engine.ok(try await Self.reminder(client, id: "r0", at: early))["reminder"]?["state"] == "missed")
            #expect(try await Self.rstreak(client) == ["current": 1, "longest": 1, "pending": 0])
            // A log backfilled into its window answers it late; deleting that log undoes the answer.
            Engine.ok(try await client.request("LOG", Engine.log("pushups", at: early.addingTimeInterval(600), id: "late")))
            #expect(try await Self.rstreak(client) == ["current": 2, "longest": 2, "pending": 0])
            Engine.ok(try await client.request("LOG.DELETE", ["id": "late"]))
            #expect(try await Self.rstreak(client) == ["current": 1, "longest": 1, "pending": 0])
            #expect(Engine.ok(try await Self.reminder(client, id: "r0", at: early))["reminder"]?["state"] == "missed")

            // A reminder reported after the log that answers it (a device syncing its backlog) is answered at once.
            let yesterday = now.addingTimeInterval(-20 * 3600)
            Engine.ok(try await client.request("LOG", Engine.log("lunges", at: yesterday, id: "synced")))
            let synced = Engine.ok(try await Self.reminder(client, id: "r-1", at: yesterday.addingTimeInterval(-10 * 60)))
            #expect(synced["reminder"]?["state"] == "answered")

            try await RecomputedProgress.read(user, zone: TimeZone(identifier: zone)!, catalog: Self.standfit)
                .expectAgreement(with: client.client, catalog: Self.standfit, "reminders")
            let export = Engine.ok(try await client.request("ACCOUNT.EXPORT"))
            #expect(export["reminders"]?.arrayValue?.count == 3)
        }
    }

    @Test func tenAnsweredRemindersUnlockResponsiveAndVacationSkipsMissedOnes() async throws {
        // Midday in the user's zone: yesterday's reminders and today's fall on their own local days.
        let zone = TestClock.zoneWhereItIsMidday()
        let user = try await LaurelTestDatabase.createUser("reminders-ten", timeZone: zone)
        let now = Date()
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            var unlocked: [String] = []
            for hour in stride(from: 10, through: 1, by: -1) {
                let at = now.addingTimeInterval(-Double(24 + hour) * 3600)
                Engine.ok(try await Self.reminder(client, id: "h\(hour)", at: at))
                let logged = Engine.ok(try await client.request("LOG", Engine.log("plank", at: at.addingTimeInterval(300))))
                unlocked += Engine.ids(logged["unlocked"])
            }
            #expect(unlocked.contains("responsive_10"))
            #expect(try await Self.rstreak(client) == ["current": 10, "longest": 10, "pending": 0])

            // On vacation from today: a reminder of today that nobody answered is skipped, not missed.
            Engine.ok(try await client.request("SETTINGS", ["vacation": true]))
            #expect(Engine.ok(try await Self.reminder(client, id: "today", at: now.addingTimeInterval(-70 * 60)))["reminder"]?["state"] == "missed")
            #expect(try await Self.rstreak(client) == ["current": 10, "longest": 10, "pending": 0])
            // Back from vacation (from today too): today's missed reminder counts again and breaks the run.
            Engine.ok(try await client.request("SETTINGS", ["vacation": false]))
            #expect(try await Self.rstreak(client) == ["current": 0, "longest": 10, "pending": 0])
            try await RecomputedProgress.read(user, zone: TimeZone(identifier: zone)!, catalog: Self.standfit)
                .expectAgreement(with: client.client, catalog: Self.standfit, "ten reminders")
        }
    }

    @Test func fortyEightRemindersADayAndTheFieldsAreChecked() async throws {
        let user = try await LaurelTestDatabase.createUser("reminders-limit")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let day = TestClock.today().adding(days: -2)
            for index in 0..<48 {
                Engine.ok(try await Self.reminder(client, id: "d\(index)", at: TestClock.utc(day, hour: 0, minute: index)))
            }
            let refused = try await Self.reminder(client, id: "d48", at: TestClock.utc(day, hour: 23))
            #expect(refused.errorCode == "invalid_argument" && refused.errorField == "at")
            // Another day has room; a repeat of a stored one is answered, not refused.
            Engine.ok(try await Self.reminder(client, id: "d49", at: TestClock.utc(day.next, hour: 1)))
            #expect(Engine.ok(try await Self.reminder(client, id: "d0", at: TestClock.utc(day, hour: 0)))["duplicate"] == true)
            let future = try await Self.reminder(client, id: "f", at: Date().addingTimeInterval(3600))
            #expect(future.errorCode == "invalid_argument" && future.errorField == "at")
            let old = try await Self.reminder(client, id: "o", at: Date().addingTimeInterval(-40 * 86_400))
            #expect(old.errorCode == "invalid_argument" && old.errorField == "at")
            let window = try await client.client.request("SETTINGS", ["reminder_window_minutes": 4])
            #expect(window.errorCode == "invalid_argument" && window.errorField == "reminder_window_minutes")
        }
    }
}
