import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// LESSON.DONE on a catalog that teaches (`mindful`): distinct lessons count, a repeated id is a duplicate, and a
/// catalog without lessons refuses the verb.
@Suite struct LessonTests {
    @Test func basicsLessonsUnlockStudentOfStillness() async throws {
        let user = try await LaurelTestDatabase.createUser("lessons")
        try await TestServer.run(catalog: "mindful") { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)

            let first = Engine.ok(try await client.request("LESSON.DONE", ["lesson": "basics-1", "id": "lesson-a"]))
            #expect(first["duplicate"] == false)
            #expect(first["log"]?["lesson"]?.stringValue == "basics-1")
            #expect(first["log"]?["id"]?.stringValue == "lesson-a")
            #expect(first["log"]?["day"]?.stringValue == TestClock.today().description)
            #expect(Engine.ids(first["unlocked"]).isEmpty)
            // 10 for the lesson, 5 for the active day.
            #expect(first["xp"]?.intValue == 15)
            #expect(first["streak"]?["current"]?.intValue == 1)

            // The same lesson again, under another id, counts once.
            let again = Engine.ok(try await client.request("LESSON.DONE", ["lesson": "basics-1", "id": "lesson-b"]))
            #expect(again["duplicate"] == false)
            #expect(again["xp"]?.intValue == 15)
            #expect(Engine.ids(again["unlocked"]).isEmpty)
            let student = Engine.ok(try await client.request("ACHIEVEMENT", ["id": "student_of_stillness"]))
            #expect(student["progress"]?.intValue == 1)
            #expect(student["target"]?.intValue == 3)
            #expect(student["unit"]?.stringValue == "lessons")

            Engine.ok(try await client.request("LESSON.DONE", ["lesson": "basics-2"]))
            let third = Engine.ok(try await client.request("LESSON.DONE", ["lesson": "basics-3", "id": "lesson-c"]))
            #expect(Engine.ids(third["unlocked"]) == ["student_of_stillness"])
            #expect(third["xp"]?.intValue == 30 + 5 + 50)
            let unlock = try await client.wait { $0.contains { $0.kind == "UNLOCK" } }.first { $0.kind == "UNLOCK" }
            #expect(unlock?.object["id"]?.stringValue == "student_of_stillness")
            #expect(unlock?.object["icon"]?.stringValue == "📚")

            // The same id again is the same completion: the first answer, marked duplicate.
            let repeated = Engine.ok(try await client.request("LESSON.DONE", ["lesson": "basics-3", "id": "lesson-c"]))
            #expect(repeated["duplicate"] == true)
            #expect(Engine.ids(repeated["unlocked"]) == ["student_of_stillness"])
            #expect(repeated["log"] == third["log"])
            let conflicting = try await client.request("LESSON.DONE", ["lesson": "breath-1", "id": "lesson-c"])
            #expect(conflicting.errorCode == "conflict")

            let unknown = try await client.request("LESSON.DONE", ["lesson": "basics-9"])
            #expect(unknown.errorCode == "not_found")
            #expect(unknown.object["field"]?.stringValue == "lesson")

            let seeker = Engine.ok(try await client.request("ACHIEVEMENT", ["id": "knowledge_seeker"]))
            #expect(seeker["progress"]?.intValue == 3)
            let profile = Engine.ok(try await client.request("PROFILE"))
            #expect(profile["xp"]?.intValue == 85)
            #expect(profile["totals"]?["logs"]?.intValue == 0, "lessons are not logs")
            #expect(profile["totals"]?["active_days"]?.intValue == 1)
            #expect(profile["unlocked"]?.intValue == 1)
            try await client.settle()
            #expect(client.unlockedIDs == ["student_of_stillness"])
        }
    }

    @Test func allSixLessonsUnlockKnowledgeSeeker() async throws {
        let user = try await LaurelTestDatabase.createUser("lessons-all")
        try await TestServer.run(catalog: "mindful") { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let lessons = ["breath-1", "basics-1", "breath-2", "basics-2", "breath-3"]
            let answers = try await client.pipeline(lessons.map { ("LESSON.DONE", ["lesson": .string($0)]) })
            #expect(answers.allSatisfy { $0.kind == "OK" && Engine.ids($0.object["unlocked"]).isEmpty })
            let last = Engine.ok(try await client.request("LESSON.DONE", ["lesson": "basics-3"]))
            #expect(Engine.ids(last["unlocked"]) == ["student_of_stillness", "knowledge_seeker"])
        }
    }

    @Test func standfitHasNoLessons() async throws {
        let user = try await LaurelTestDatabase.createUser("lessons-none")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let refused = try await client.request("LESSON.DONE", ["lesson": "basics-1"])
            #expect(refused.errorCode == "invalid_argument")
            #expect(refused.object["field"]?.stringValue == "lesson")
        }
    }
}
