import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import LaurelTestSupport
import Testing

/// The boards the server keeps are the boards recomputed from what it stored: after a history of logs of today and
/// backfilled ones, a deletion, unlocks, challenges and a move across the date line, every key's score summed from
/// `laurel.day_scores` equals `BoardScores.recompute` over the live logs, the unlocks, the completed challenges and the
/// zone history read back with plain SQL; and all-time XP is the XP PROFILE shows.
@Suite struct BoardRecomputationTests {
    @Test func storedBoardsEqualARecomputationFromTheStoredFacts() async throws {
        let user = try await LaurelTestDatabase.createUser("recomputed", timeZone: "Pacific/Kiritimati")
        try await TestServer.run(challenges: true) { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let now = Date()
            Engine.ok(try await client.request("CHALLENGES"))
            for (index, activity) in ["squats", "pushups", "lunges", "plank", "squats", "pushups"].enumerated() {
                Engine.ok(try await client.request("LOG", Engine.log(activity, amount: 5 + index * 7, id: "today-\(index)")))
            }
            for back in [1, 2, 2, 6, 13, 27] {
                Engine.ok(try await client.request("LOG", Engine.log("squats", amount: back * 3, at: now.addingTimeInterval(-Double(back) * 86_400),
                                                                        id: "back-\(back)-\(UUID().uuidString.prefix(4))")))
            }
            Engine.ok(try await client.request("LOG.DELETE", ["id": "today-1"]))
            // Across the date line: later facts, unlocks and completions fall on Pago Pago's days.
            Engine.ok(try await client.request("SETTINGS", ["time_zone": "Pacific/Pago_Pago"]))
            for index in 0..<4 { Engine.ok(try await client.request("LOG", Engine.log("plank", amount: 30, id: "west-\(index)"))) }
            Engine.ok(try await client.request("LOG", Engine.log("lunges", amount: 9, at: now.addingTimeInterval(-3 * 86_400), id: "west-back")))
            Engine.ok(try await client.request("CHALLENGES"))

            let (stored, recomputed) = try await Self.boards(of: user)
            let difference = Set(stored.keys).union(recomputed.keys).filter { stored[$0] != recomputed[$0] }
                .map { "\($0.board) \($0.key): stored \(stored[$0] ?? 0), recomputed \(recomputed[$0] ?? 0)" }.sorted()
            #expect(difference.isEmpty, "\(difference)")
            #expect(stored.count > 40, "the history reaches many keys: \(stored.count)")
            let xp = Engine.ok(try await client.request("PROFILE"))["xp"]?.intValue
            #expect(stored[BoardKey(board: .xp, period: .all, key: "all")] == xp)
            // The challenges board as LEADERBOARD reads it.
            let challenges = Engine.ok(try await client.request("LEADERBOARD", ["board": "challenges", "period": "all", "scope": "friends"]))
            #expect(challenges["me"]?["score"]?.intValue == stored[BoardKey(board: .challenges, period: .all, key: "all")])

            // As a database from before the boards has it: no day scores. `laurel boards refill` (BoardRefill) writes
            // them again from the stored facts, the same scores in every key.
            try await LaurelTestDatabase.scalar(
                """
                WITH gone AS (DELETE FROM laurel.earlier_day_scores WHERE user_id = $1::bigint)
                UPDATE laurel.progress SET latest_score_day = NULL, latest_scores = NULL WHERE user_id = $1::bigint
                """, [.text(user.id.description)])
            #expect(try await Self.boards(of: user).stored.isEmpty)
            let refill = BoardRefill(store: PostgresStore(pool: try await LaurelTestDatabase.admin()), rules: Rulebook(catalog: try ShippedCatalogs.load("standfit")))
            #expect(try await refill.refill(user.id, now: Date()) > 0)
            let (refilled, _) = try await Self.boards(of: user)
            #expect(refilled == stored)
            // The boards read the refilled rows as they read the kept ones.
            let all = Engine.ok(try await client.request("LEADERBOARD", ["board": "xp", "period": "all", "scope": "friends"]))
            #expect(all["me"]?["score"]?.intValue == xp)
        }
    }

    /// Random histories through the server and PostgreSQL: logs of today and backfilled up to 29 days, deletions, zone
    /// moves across the date line, days' challenges; after each history the stored boards equal the recomputation.
    @Test(arguments: 0..<4)
    func randomHistoriesKeepBoardsEqualToTheirRecomputation(seed: Int) async throws {
        let zones = ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu", "America/St_Johns", "UTC"]
        let user = try await LaurelTestDatabase.createUser("random-boards", timeZone: zones[seed % zones.count])
        try await TestServer.run(challenges: true) { port in
            var random = SeededRandom(seed: UInt64(1000 + seed))
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            let activities = ["squats", "pushups", "lunges", "plank"]
            var live: [String] = []
            for step in 0..<60 {
                switch random.below(10) {
                case 0..<6:
                    let back = random.below(3) == 0 ? Double(random.below(29 * 24)) * 3600 : 0
                    let id = "r\(seed)-\(step)"
                    let answer = try await client.request("LOG", Engine.log(
                        activities[random.below(activities.count)], amount: 1 + random.below(80), at: back > 0 ? Date().addingTimeInterval(-back) : nil, id: id))
                    if answer.kind == "OK" { live.append(id) }
                case 6, 7:
                    if !live.isEmpty { Engine.ok(try await client.request("LOG.DELETE", ["id": .string(live.remove(at: random.below(live.count)))])) }
                case 8:
                    Engine.ok(try await client.request("SETTINGS", ["time_zone": .string(zones[random.below(zones.count)])]))
                default:
                    Engine.ok(try await client.request("CHALLENGES"))
                }
            }
            let (stored, recomputed) = try await Self.boards(of: user)
            let difference = Set(stored.keys).union(recomputed.keys).filter { stored[$0] != recomputed[$0] }
                .map { "\($0.board) \($0.key): stored \(stored[$0] ?? 0), recomputed \(recomputed[$0] ?? 0)" }.sorted()
            #expect(difference.isEmpty, "seed \(seed): \(difference)")
            let xp = Engine.ok(try await client.request("PROFILE"))["xp"]?.intValue
            #expect(stored[BoardKey(board: .xp, period: .all, key: "all")] == xp, "seed \(seed)")
            #expect(try await Self.rowsOnOrAfterTheLatestDay(of: user) == 0, "seed \(seed)")
        }
    }

    /// The writes of the latest local day keep its scores on the progress row: a day of LOGs writes no score row; the
    /// first LOG of a later day moves the day before to rows of its own, and a backfill moves its own day's row.
    @Test func theLatestDaysScoresLiveOnTheProgressRow() async throws {
        let user = try await LaurelTestDatabase.createUser("latest-day-scores")
        let id = PostgresValue.int(Int(user.id.rawValue))
        @Sendable func earlierRows() async throws -> String? {
            try await LaurelTestDatabase.scalar(
                "SELECT coalesce(string_agg(board || ' ' || score, ',' ORDER BY day, board), '') FROM laurel.earlier_day_scores WHERE user_id = $1::bigint",
                [id])
        }
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            for step in 0..<3 { Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 4, id: "t\(step)"))) }
            #expect(try await earlierRows() == "")
            #expect(try await LaurelTestDatabase.scalar(
                "SELECT g.latest_score_day = (SELECT max(l.day) FROM laurel.logs l WHERE l.user_id = g.user_id) FROM laurel.progress g WHERE g.user_id = $1::bigint",
                [id]) == "t")
            // A backfill two days back has a row of its own; the latest day stays where it is.
            Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 2, at: Date().addingTimeInterval(-2 * 86_400), id: "b")))
            #expect(try await earlierRows() == "activity:squats 2,logs 1,xp 15")
            let (stored, recomputed) = try await Self.boards(of: user)
            #expect(stored == recomputed)
            #expect(stored[BoardKey(board: .logs, period: .all, key: "all")] == 4)
            #expect(try await Self.rowsOnOrAfterTheLatestDay(of: user) == 0)
        }
    }

    /// `laurel boards refill` moves the user's version on: a session that loaded the latest day's scores before the
    /// refill (here, scores an operator's mistake emptied) catches up before its next write, instead of writing that
    /// write's scores on top of what the refill replaced.
    @Test func aRefillMakesASessionCatchUpBeforeItWritesAgain() async throws {
        let user = try await LaurelTestDatabase.createUser("refill-session")
        let id = PostgresValue.int(Int(user.id.rawValue))
        try await TestServer.run { port in
            let first = try await PushRecorder.authenticated(port: port, token: user.token)
            for step in 0..<3 { Engine.ok(try await first.request("LOG", Engine.log("squats", amount: 4, id: "before-\(step)"))) }
            await first.client.close()
            // The session has ended once it stored its snapshot; the next connection loads the user again.
            let ended = try await Eventually.holds(timeout: .seconds(10)) {
                try await LaurelTestDatabase.scalar(
                    "SELECT count(*) FROM laurel.progress_snapshots WHERE user_id = $1::bigint AND version = 3", [id]) == "1"
            }
            try #require(ended, "the first session did not end")
            try await LaurelTestDatabase.scalar(
                "UPDATE laurel.progress SET latest_score_day = NULL, latest_scores = NULL WHERE user_id = $1::bigint RETURNING 1", [id])
            let second = try await PushRecorder.authenticated(port: port, token: user.token)
            Engine.ok(try await second.request("PROFILE"))
            let refill = BoardRefill(
                store: PostgresStore(pool: try await LaurelTestDatabase.admin()), rules: Rulebook(catalog: try ShippedCatalogs.load("standfit")))
            #expect(try await refill.refill(user.id, now: Date()) > 0)
            Engine.ok(try await second.request("LOG", Engine.log("squats", amount: 4, id: "after")))
            let (stored, recomputed) = try await Self.boards(of: user)
            #expect(stored == recomputed)
            #expect(stored[BoardKey(board: .logs, period: .all, key: "all")] == 4)
        }
    }

    /// Rows of `laurel.earlier_day_scores` on or after the user's latest day: none, ever (the view would count a day
    /// twice).
    static func rowsOnOrAfterTheLatestDay(of user: TestUser) async throws -> Int? {
        try await LaurelTestDatabase.scalar(
            """
            SELECT count(*) FROM laurel.earlier_day_scores e JOIN laurel.progress g ON g.user_id = e.user_id
             WHERE e.user_id = $1::bigint AND e.day >= g.latest_score_day
            """, [.int(Int(user.id.rawValue))]).flatMap { Int($0) }
    }

    /// Every key's score as stored (day rows summed into their keys), and as recomputed from the stored facts.
    static func boards(of user: TestUser) async throws -> (stored: [BoardKey: Int], recomputed: [BoardKey: Int]) {
        let catalog = try ShippedCatalogs.load("standfit")
        let id = PostgresValue.int(Int(user.id.rawValue))
        return try await LaurelTestDatabase.admin().transaction { connection in
            func date(_ row: PostgresRow, _ column: String) throws -> Date { Date(timeIntervalSince1970: Double(try row.int(column)) / 1_000_000) }
            let logs = try connection.query(
                """
                SELECT id, activity_id, amount, (extract(epoch FROM at) * 1000000)::bigint AS at_us, to_char(day, 'YYYY-MM-DD') AS day, local_hour
                  FROM laurel.logs WHERE user_id = $1::bigint AND deleted_at IS NULL
                """, [id]
            ).map { row in
                LoggedFact(id: try row.string("id"), activity: try row.string("activity_id"), amount: try row.int("amount"),
                           at: try date(row, "at_us"), day: LocalDay(try row.string("day"))!, localHour: try row.int("local_hour"))
            }
            var settings = StreakSettingsHistory()
            var zone = "UTC"
            for row in try connection.query(
                "SELECT time_zone, (extract(epoch FROM changed_at) * 1000000)::bigint AS changed_us FROM laurel.settings WHERE user_id = $1::bigint ORDER BY id",
                [id])
            {
                zone = try row.string("time_zone")
                settings.setZone(zone, from: try date(row, "changed_us"))
            }
            let listed = Set(catalog.achievements.map(\.id))
            let unlocks = try connection.query(
                "SELECT achievement_id, (extract(epoch FROM unlocked_at) * 1000000)::bigint AS at_us FROM laurel.unlocks WHERE user_id = $1::bigint", [id]
            ).filter { listed.contains(try $0.string("achievement_id")) }.map { try date($0, "at_us") }
            let challenges = try connection.query(
                """
                SELECT xp, (extract(epoch FROM completed_at) * 1000000)::bigint AS at_us
                  FROM laurel.challenges WHERE user_id = $1::bigint AND completed_at IS NOT NULL
                """, [id]
            ).map { (at: try date($0, "at_us"), xp: try $0.int("xp")) }
            var facts = ProgressFacts()
            facts.logs = logs
            let recomputed = BoardScores.recompute(
                facts: facts, unlocks: unlocks, completedChallenges: challenges, settings: settings, zone: TimeZone(identifier: zone)!,
                builtInActivities: Set(catalog.activities.map(\.id)))
            var stored: [BoardKey: Int] = [:]
            for row in try connection.query(
                "SELECT to_char(day, 'YYYY-MM-DD') AS day, board, score FROM laurel.day_scores WHERE user_id = $1::bigint", [id])
            {
                guard let board = LeaderboardBoard(try row.string("board")) else { continue }
                for key in BoardKey.keys(of: board, on: LocalDay(try row.string("day"))!) { stored[key, default: 0] += try row.int("score") }
            }
            return (stored.filter { $0.value != 0 }, recomputed)
        }
    }
}
