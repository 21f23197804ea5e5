import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelTestSupport
import Testing

/// For random histories (logs now and backfilled into the week, deleted logs, reconnects, time zones), what
/// CHALLENGES shows equals a count over the stored facts made here from the rows alone, every challenge whose
/// count reached its target is completed, and XP is the rules' sum including the XP of completed challenges.
@Suite struct ChallengeRecomputationTests {
    @Test(arguments: [(UInt64(11), "UTC"), (UInt64(12), "America/New_York"), (UInt64(13), "Asia/Tokyo")])
    func shownProgressEqualsARecount(seed: UInt64, zone: String) async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-recount", timeZone: zone)
        let timeZone = try #require(TimeZone(identifier: zone))
        try await TestServer.run(challenges: true) { port in
            var random = SeededRandom(seed: seed)
            var client = try await PushRecorder.authenticated(port: port, token: user.token)
            var logIDs: [String] = []
            let today = TestClock.today(in: timeZone)
            let daysIntoWeek = today.daysSince1970 - today.isoWeek.monday.daysSince1970
            for step in 0..<45 {
                switch random.below(10) {
                case 0...5:
                    let id = "r\(seed)-\(step)"
                    let activity = Challenges.standfitActivities[random.below(4)]
                    // Now, or earlier this week (never before the user's Monday, never in the future).
                    let back = random.below(3) == 0 ? Double(random.below(daysIntoWeek * 86_400 + 1)) : 0
                    let at = Date().addingTimeInterval(-back)
                    let earliest = TestClock.utc(today.isoWeek.monday, hour: 0).addingTimeInterval(-Double(timeZone.secondsFromGMT()))
                    let log = Engine.log(activity, amount: 1 + random.below(25), at: back > 0 ? max(at, earliest.addingTimeInterval(60)) : nil, id: id)
                    Engine.ok(try await client.request("LOG", log))
                    logIDs.append(id)
                case 6, 7:
                    guard !logIDs.isEmpty else { continue }
                    let id = logIDs.remove(at: random.below(logIDs.count))
                    Engine.ok(try await client.request("LOG.DELETE", ["id": .string(id)]))
                case 8:
                    client = try await PushRecorder.authenticated(port: port, token: user.token)
                default:
                    _ = try await Challenges.read(client)
                }
                if step % 5 == 4 { try await Self.expectShownEqualsRecount(client, user: user, today: today) }
            }
            try await Self.expectShownEqualsRecount(client, user: user, today: today)
        }
    }

    static func expectShownEqualsRecount(_ client: PushRecorder, user: TestUser, today: LocalDay) async throws {
        let answer = try await Challenges.read(client)
        let shown = Challenges.daily(answer) + Challenges.weekly(answer)
        let pool = try await LaurelTestDatabase.admin()
        let userID = PostgresValue.int(Int(user.id.rawValue))
        let (stored, logs) = try await pool.withConnection { connection in
            let stored = try connection.query(
                """
                SELECT period || '-' || to_char(period_start, 'YYYY-MM-DD') || '-' || slot AS id, kind, target, xp, activity_id, hour,
                       to_char(period_start, 'YYYY-MM-DD') AS start, period, completed_at IS NOT NULL AS completed
                  FROM laurel.challenges WHERE user_id = $1::bigint
                """, [userID]
            ).map { row in
                (id: try row.string("id"), kind: try row.string("kind"), target: try row.int("target"), xp: try row.int("xp"),
                 activity: try row.optionalString("activity_id"), hour: try row.optionalInt("hour"), start: try row.string("start"),
                 weekly: try row.string("period") == "weekly", completed: try row.bool("completed"))
            }
            let logs = try connection.query(
                "SELECT activity_id, amount, to_char(day, 'YYYY-MM-DD') AS day, local_hour FROM laurel.logs WHERE user_id = $1::bigint AND deleted_at IS NULL",
                [userID]
            ).map { (activity: try $0.string("activity_id"), amount: try $0.int("amount"), day: try $0.string("day"), hour: try $0.int("local_hour")) }
            return (stored, logs)
        }
        #expect(shown.count == 4)
        for challenge in shown {
            let row = try #require(stored.first { $0.id == challenge["id"]?.stringValue })
            let first = try #require(LocalDay(row.start))
            let days = Set((0..<(row.weekly ? 7 : 1)).map { first.adding(days: $0).description })
            let inPeriod = logs.filter { days.contains($0.day) }
            let count: Int = switch row.kind {
            case "logs_today": inPeriod.count
            case "amount_today": inPeriod.filter { $0.activity == row.activity }.reduce(0) { $0 + $1.amount }
            case "distinct_today": Set(inPeriod.map(\.activity)).count
            case "before_hour": inPeriod.contains { $0.hour < (row.hour ?? 0) } ? 1 : 0
            case "keep_streak": inPeriod.isEmpty ? 0 : 1
            case "active_days_week": Set(inPeriod.map(\.day)).count
            default: -1
            }
            #expect(challenge["progress"]?.intValue == min(count, row.target), "\(challenge) against \(inPeriod.count) logs")
            if count >= row.target { #expect(row.completed, "\(row.id) reached its target and is completed") }
            #expect((challenge["completed_at"] != nil) == row.completed)
        }
        let profile = Engine.ok(try await client.request("PROFILE"))
        let activeDays = Set(logs.map(\.day)).count
        let challengeXP = stored.filter(\.completed).reduce(0) { $0 + $1.xp }
        let unlocked = profile["unlocked"]?.intValue ?? 0
        #expect(profile["xp"]?.intValue == 10 * logs.count + 5 * activeDays + 50 * unlocked + challengeXP, "\(profile)")
    }
}
