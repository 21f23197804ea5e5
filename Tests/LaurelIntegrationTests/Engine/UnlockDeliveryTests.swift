import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// An unlock is stored once and pushed once to every connection of the user, on every instance, however many
/// connections log at the same time.
@Suite struct UnlockDeliveryTests {
    @Test func firstLogReachesEveryConnectionOnBothInstancesOnce() async throws {
        let user = try await LaurelTestDatabase.createUser("unlock-once")
        try await TestServer.run { first in
            try await TestServer.run { second in
                let here = try await PushRecorder.authenticated(port: first, token: user.token)
                let alsoHere = try await PushRecorder.authenticated(port: first, token: user.token)
                let elsewhere = try await PushRecorder.authenticated(port: second, token: user.token)

                let answer = Engine.ok(try await here.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 1))))
                #expect(Engine.ids(answer["unlocked"]) == ["first_exercise"])

                var seqs: [Int] = []
                for recorder in [here, alsoHere, elsewhere] {
                    // Another instance hears of it through PostgreSQL's NOTIFY, which may take a moment.
                    let pushes = try await recorder.wait { $0.contains { $0.kind == "UNLOCK" } }
                    let unlock = try #require(pushes.first { $0.kind == "UNLOCK" })
                    #expect(unlock.object["id"]?.stringValue == "first_exercise")
                    #expect(unlock.object["name"]?.stringValue == "First Exercise")
                    #expect(unlock.object["unlocked_at"]?.stringValue != nil)
                    #expect(unlock.object["progress"]?.intValue == 1 && unlock.object["target"]?.intValue == 1)
                    seqs.append(try #require(unlock.object["seq"]?.intValue))
                }
                #expect(Set(seqs).count == 1, "the same stored push everywhere: \(seqs)")

                // A second log unlocks nothing new and repeats nothing.
                let second = Engine.ok(try await alsoHere.request("LOG", Engine.log("squats", amount: 5, at: TestClock.noon(daysAgo: 1, minute: 1))))
                #expect(Engine.ids(second["unlocked"]).isEmpty)
                for recorder in [here, alsoHere, elsewhere] {
                    try await recorder.settle(.seconds(1))
                    #expect(recorder.unlockedIDs == ["first_exercise"], "\(recorder.pushes.map(\.raw))")
                    #expect(recorder.seqs == Array(Set(recorder.seqs)).sorted(), "each push once, in order: \(recorder.seqs)")
                }
                // All three saw exactly the same stored pushes.
                #expect(here.seqs == alsoHere.seqs && here.seqs == elsewhere.seqs)
                let rows = try await LaurelTestDatabase.scalar(
                    "SELECT count(*) FROM laurel.unlocks WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
                #expect(rows == "1")
            }
        }
    }

    @Test func sixteenConnectionsLoggingAtOnce() async throws {
        let user = try await LaurelTestDatabase.createUser("unlock-race")
        let connections = 16
        let logsEach = 8
        let activities = ["squats", "pushups", "lunges", "plank"]
        try await TestServer.run { port in
            var recorders: [PushRecorder] = []
            for _ in 0..<connections { recorders.append(try await PushRecorder.authenticated(port: port, token: user.token)) }

            // Every connection sends its LOGs in one write, all connections at once.
            let answers = try await withThrowingTaskGroup(of: [LineClient.Line].self) { group in
                for (index, recorder) in recorders.enumerated() {
                    group.addTask {
                        let requests: [(verb: String, argument: JSONObject?)] = (0..<logsEach).map { number in
                            let activity = activities[(index + number) % activities.count]
                            let at = TestClock.noon(daysAgo: 1, minute: index, second: number)
                            return ("LOG", Engine.log(activity, amount: activity == "pushups" ? 10 : 3, at: at))
                        }
                        return try await recorder.client.pipeline(requests)
                    }
                }
                var all: [LineClient.Line] = []
                for try await answers in group { all += answers }
                return all
            }
            #expect(answers.count == connections * logsEach)
            #expect(answers.allSatisfy { $0.kind == "OK" }, "\(answers.filter { $0.kind != "OK" }.map(\.raw))")

            // Each unlock is reported by exactly one LOG answer.
            let reported = answers.flatMap { Engine.ids($0.object["unlocked"]) }
            #expect(reported.count == Set(reported).count, "\(reported)")

            let pool = try await LaurelTestDatabase.admin()
            let userID = Int(user.id.rawValue)
            let rows = try await pool.withConnection { connection in
                try connection.query(
                    "SELECT achievement_id, count(*) OVER (PARTITION BY achievement_id) AS copies FROM laurel.unlocks WHERE user_id = $1::bigint",
                    [.int(userID)]
                ).map { (try $0.string("achievement_id"), try $0.int("copies")) }
            }
            #expect(rows.allSatisfy { $0.1 == 1 })
            let stored = Set(rows.map(\.0))
            #expect(stored == ["first_exercise", "total_100", "pushups_100", "all_in_one_day", "try_everything", "marathon"])
            #expect(Set(reported) == stored)

            let lastSeq = try #require(Int(try await LaurelTestDatabase.scalar(
                "SELECT last_seq FROM laurel.progress WHERE user_id = $1::bigint", [.int(userID)]) ?? ""))
            for (index, recorder) in recorders.enumerated() {
                try await recorder.settle(index == 0 ? .seconds(1) : .zero)
                #expect(recorder.unlockedIDs.count == stored.count, "connection \(index): \(recorder.unlockedIDs)")
                #expect(Set(recorder.unlockedIDs) == stored, "connection \(index)")
                // Every stored push, once each, in seq order.
                #expect(recorder.seqs == Array(1...lastSeq), "connection \(index) got \(recorder.seqs) of 1...\(lastSeq)")
            }
        }
    }
}
