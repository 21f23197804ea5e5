import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// Two instances rank the same keys in memory (docs/leaderboards.md, "Ranks in memory"): what one instance commits
/// (a rise, a deletion, an opt-out, a deleted account) reaches the other's boards through the commit announcements,
/// and each instance's own commits show on its boards at once.
@Suite struct BoardsAcrossInstancesTests {
    static func board(_ client: PushRecorder, _ argument: JSONObject) async throws -> JSONObject {
        Engine.ok(try await client.request("LEADERBOARD", argument))
    }

    static func scores(_ answer: JSONObject) -> [String: Int] {
        var scores: [String: Int] = [:]
        for entry in (answer["entries"]?.arrayValue ?? []).compactMap(\.objectValue) {
            if let user = entry["user_id"]?.stringValue, let score = entry["score"]?.intValue { scores[user] = score }
        }
        return scores
    }

    @Test func whatOneInstanceCommitsReachesTheOthersBoards() async throws {
        let writer = try await LaurelTestDatabase.createUser("board-writer")
        let reader = try await LaurelTestDatabase.createUser("board-reader")
        let quiet = try await LaurelTestDatabase.createUser("board-quiet")
        let friendsBoard: JSONObject = ["board": "logs", "period": "week", "scope": "friends"]
        try await TestServer.withServer { first in
            try await TestServer.withServer { second in
                let here = try await PushRecorder.authenticated(port: first.port, token: writer.token)
                let there = try await PushRecorder.authenticated(port: second.port, token: reader.token)
                // The writer's own entry on the second instance's global board (`me`): other tests' users share it.
                let writerThere = try await PushRecorder.authenticated(port: second.port, token: writer.token)
                let globalBoard: JSONObject = ["board": "logs", "period": "week", "around_me": true]
                let code = Engine.ok(try await here.request("INVITE.CREATE"))["code"] ?? .null
                Engine.ok(try await there.request("INVITE.ACCEPT", ["code": code]))
                Engine.ok(try await there.request("LOG", Engine.log("squats")))
                // A global read makes the second instance hold the week's key; friends boards then read it too.
                #expect(try await Self.board(writerThere, globalBoard)["me"] == .null)
                #expect(Self.scores(try await Self.board(there, friendsBoard)) == [reader.id.description: 1])
                // A user who opted out before their first score on the key held stays off its global order.
                let quietThere = try await PushRecorder.authenticated(port: second.port, token: quiet.token)
                Engine.ok(try await quietThere.request("SETTINGS", ["leaderboards": false]))
                Engine.ok(try await quietThere.request("LOG", Engine.log("squats")))
                #expect(try await Self.board(quietThere, globalBoard)["me"] == .null)

                for index in 0..<3 { Engine.ok(try await here.request("LOG", Engine.log("squats", id: "w\(index)"))) }
                let writerID = writer.id.description
                #expect(try await Eventually.holds { Self.scores(try await Self.board(there, friendsBoard))[writerID] == 3 })
                #expect(try await Eventually.holds { try await Self.board(writerThere, globalBoard)["me"]?["score"] == 3 }, "the global board too")
                // Its own commits show on the first instance's boards at once.
                #expect(Self.scores(try await Self.board(here, friendsBoard))[writerID] == 3)

                Engine.ok(try await here.request("LOG.DELETE", ["id": "w0"]))
                #expect(try await Eventually.holds { Self.scores(try await Self.board(there, friendsBoard))[writerID] == 2 })

                Engine.ok(try await here.request("SETTINGS", ["leaderboards": false]))
                #expect(try await Eventually.holds { try await Self.board(writerThere, globalBoard)["me"] == .null }, "opted out of global boards")
                #expect(Self.scores(try await Self.board(there, friendsBoard))[writerID] == 2, "still on friends' boards")

                Engine.ok(try await here.request("ACCOUNT.DELETE", ["confirm": .string(writer.name)]))
                #expect(try await Eventually.holds { Self.scores(try await Self.board(there, friendsBoard))[writerID] == nil })
            }
        }
    }

    /// One user writing on two instances in turn: each session catches up with the latest day's scores the other
    /// stored before it stores its own on top of them, so nothing the other wrote is lost or counted twice.
    @Test func aUserWritingOnTwoInstancesKeepsTheLatestDaysScoresOfBoth() async throws {
        let user = try await LaurelTestDatabase.createUser("board-two-writers")
        try await TestServer.withServer { first in
            try await TestServer.withServer { second in
                let here = try await PushRecorder.authenticated(port: first.port, token: user.token)
                let there = try await PushRecorder.authenticated(port: second.port, token: user.token)
                for index in 0..<3 {
                    Engine.ok(try await here.request("LOG", Engine.log("squats", amount: 2, id: "h\(index)")))
                    Engine.ok(try await there.request("LOG", Engine.log("squats", amount: 3, id: "t\(index)")))
                }
                // A backfill from one side, a deletion from the other.
                Engine.ok(try await here.request("LOG", Engine.log("squats", amount: 1, at: Date().addingTimeInterval(-2 * 86_400), id: "b")))
                Engine.ok(try await there.request("LOG.DELETE", ["id": "h0"]))
                let (stored, recomputed) = try await BoardRecomputationTests.boards(of: user)
                #expect(stored == recomputed)
                #expect(stored[BoardKey(board: .logs, period: .all, key: "all")] == 6)
                #expect(stored[BoardKey(board: .activity("squats"), period: .all, key: "all")] == 14)
            }
        }
    }

    @Test func withRoomForOneKeyEachReadIsRightAndTheOtherKeyIsReadAgain() async throws {
        let user = try await LaurelTestDatabase.createUser("board-one-key")
        var configuration = ServerConfiguration(port: 0)
        configuration.maxHeldBoards = 1
        try await TestServer.run(configuration: configuration) { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 4)))
            for round in 1...3 {
                for (board, score) in [("logs", round), ("xp", nil)] {
                    let me = try await Self.board(client, ["board": .string(board), "period": "week", "around_me": true])["me"]
                    if let score { #expect(me?["score"]?.intValue == score, "\(board), round \(round)") } else { #expect(me?["score"]?.intValue ?? 0 > 0) }
                }
                Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 4)))
            }
        }
    }

    @Test func aKeyHeldIsReadWholeAgainSoChangesNoCommitAnnouncesShow() async throws {
        let user = try await LaurelTestDatabase.createUser("board-reloaded")
        var configuration = ServerConfiguration(port: 0)
        configuration.boardReloadInterval = .milliseconds(300)
        try await TestServer.run(configuration: configuration) { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            Engine.ok(try await client.request("LOG", Engine.log("squats")))
            let board: JSONObject = ["board": "logs", "period": "week", "around_me": true]
            #expect(try await Self.board(client, board)["me"]?["score"] == 1)
            // As an operator's `laurel boards refill` would: scores rewritten (today's are on the progress row),
            // nothing announced.
            _ = try await LaurelTestDatabase.scalar(
                """
                UPDATE laurel.progress SET latest_scores = replace(latest_scores, '"logs":[1,', '"logs":[101,')
                 WHERE user_id = $1::bigint AND latest_scores LIKE '%"logs":[1,%' RETURNING 1
                """, [.int(Int(user.id.rawValue))])
            #expect(try await Eventually.holds { try await Self.board(client, board)["me"]?["score"] == 101 })
        }
    }
}
