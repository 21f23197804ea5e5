import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// rules.md: a day is active with a live log or a lesson completion, and a lesson counts once. Completing a lesson
/// done before, on a new day, is practice: that day is active (streak, active days and their XP), while the lesson
/// still counts once for `lessons` and for the lesson's own XP. Every path agrees: the transaction that stores it, a
/// rebuild after a deletion, and a rebuild from the stored facts alone.
@Suite struct LessonPracticeDayTests {
    @Test func repeatingALessonOnANewDayMakesThatDayActive() async throws {
        let user = try await LaurelTestDatabase.createUser("lesson-practice")
        try await TestServer.run(catalog: "mindful") { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let first = Engine.ok(try await client.request(
                "LESSON.DONE", ["lesson": "basics-1", "id": "practice-1", "at": TestClock.text(TestClock.noon(daysAgo: 2))]))
            #expect(first["xp"]?.intValue == 15)

            let again = Engine.ok(try await client.request(
                "LESSON.DONE", ["lesson": "basics-1", "id": "practice-2", "at": TestClock.text(TestClock.noon(daysAgo: 1))]))
            // 10 for the lesson (once), 5 for each of the two active days.
            #expect(again["xp"]?.intValue == 20)
            #expect(again["streak"]?["current"]?.intValue == 2)
            #expect(again["streak"]?["last_active_day"]?.stringValue == TestClock.today().adding(days: -1).description)
            #expect(try await LaurelTestDatabase.count(
                "SELECT count(*) FROM laurel.lesson_completions WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))]) == 2,
                "the second completion is stored")

            // The same lesson again on a day already active adds nothing.
            let sameDay = Engine.ok(try await client.request(
                "LESSON.DONE", ["lesson": "basics-1", "at": TestClock.text(TestClock.noon(daysAgo: 1, minute: 30))]))
            #expect(sameDay["xp"]?.intValue == 20)
            try await Self.expectPractice(client, xp: 20, "after the lessons")

            // A deletion rebuilds the running state from the stored facts (first_step, unlocked by the log, stays).
            let logged = Engine.ok(try await client.request("LOG", Engine.log("meditation", amount: 10, id: "practice-log")))
            #expect(logged["streak"]?["current"]?.intValue == 3)
            let deleted = Engine.ok(try await client.request("LOG.DELETE", ["id": "practice-log"]))
            #expect(deleted["xp"]?.intValue == 70)
            try await Self.expectPractice(client, xp: 70, "after a rebuild")
        }

        // And so does a server that holds nothing of the user and finds no stored running state.
        try await LaurelTestDatabase.scalar(
            "DELETE FROM laurel.progress_snapshots WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
        try await TestServer.run(catalog: "mindful") { port in
            let fresh = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Self.expectPractice(fresh, xp: 70, "rebuilt from the facts")
        }
    }

    /// Two active days (one lesson done twice), one lesson counted.
    static func expectPractice(
        _ client: PushRecorder, xp: Int, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let profile = Engine.ok(try await client.request("PROFILE"), sourceLocation: sourceLocation)
        #expect(profile["xp"]?.intValue == xp, "\(label): xp", sourceLocation: sourceLocation)
        #expect(profile["totals"]?["active_days"]?.intValue == 2, "\(label): active days", sourceLocation: sourceLocation)
        #expect(profile["streak"]?["current"]?.intValue == 2, "\(label): streak", sourceLocation: sourceLocation)
        #expect(profile["streak"]?["longest"]?.intValue == 2, "\(label): longest", sourceLocation: sourceLocation)
        let student = Engine.ok(try await client.request("ACHIEVEMENT", ["id": "student_of_stillness"]), sourceLocation: sourceLocation)
        #expect(student["progress"]?.intValue == 1, "\(label): the lesson counts once", sourceLocation: sourceLocation)
    }
}
