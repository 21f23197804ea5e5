import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// Boards over real sockets and PostgreSQL (rules.md and protocol.md, "Friends and leaderboards"): scores kept by the
/// write path in each fact's own local day, week and month; deletions lowering them; the order, ranks, pages and
/// `around_me`; the friends scope and the opt-out; the refusals. Global boards are shared by every test's users, so
/// what is exact here is read among friends, and global boards are checked for what holds whoever else is on them.
@Suite struct LeaderboardTests {
    static func board(_ client: PushRecorder, _ argument: JSONObject) async throws -> JSONObject {
        Engine.ok(try await client.request("LEADERBOARD", argument))
    }

    static func entries(_ answer: JSONObject) -> [JSONObject] {
        (answer["entries"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    /// Makes `first` and each of `others` friends.
    static func befriend(_ first: PushRecorder, _ others: [PushRecorder]) async throws {
        for other in others {
            let code = Engine.ok(try await first.request("INVITE.CREATE"))["code"] ?? .null
            Engine.ok(try await other.request("INVITE.ACCEPT", ["code": code]))
        }
    }

    @Test func factsCountInTheirOwnLocalDaysWeeksAndMonthsInZonesFarApart() async throws {
        let east = try await LaurelTestDatabase.createUser("kiritimati", timeZone: "Pacific/Kiritimati")
        let west = try await LaurelTestDatabase.createUser("pago-pago", timeZone: "Pacific/Pago_Pago")
        try await TestServer.run { port in
            let k = try await PushRecorder.authenticated(port: port, token: east.token)
            let p = try await PushRecorder.authenticated(port: port, token: west.token)
            try await Self.befriend(k, [p])
            // The same instant is 25 hours apart on their calendars: two different local days.
            let at = Date()
            let kDay = try #require(Engine.ok(try await k.request("LOG", Engine.log("squats", amount: 12, at: at)))["log"]?["day"]?.stringValue)
            let pDay = try #require(Engine.ok(try await p.request("LOG", Engine.log("squats", amount: 30, at: at)))["log"]?["day"]?.stringValue)
            #expect(kDay != pDay)

            // Each asker's current day is their own: K sees only K on K's day, P only P on P's.
            let kToday = try await Self.board(k, ["board": "activity", "activity": "squats", "period": "day", "scope": "friends"])
            #expect(kToday["key"] == .string(kDay) && Self.entries(kToday).map { $0["user_id"] } == [.string(east.id.description)])
            #expect(kToday["me"]?["score"] == 12 && kToday["total"] == 1 && kToday["activity"] == "squats")
            let pToday = try await Self.board(p, ["board": "activity", "activity": "Squats", "period": "day", "scope": "friends"])
            #expect(pToday["key"] == .string(pDay) && Self.entries(pToday).map { $0["score"] } == [30])
            // K reads P's day by key (yesterday for K): P is on it, K is not.
            let kReadsP = try await Self.board(k, ["board": "activity", "activity": "squats", "period": "day", "key": .string(pDay), "scope": "friends"])
            #expect(Self.entries(kReadsP).map { $0["user_id"] } == [.string(west.id.description)] && kReadsP["me"] == .null)

            // All time: both, the larger amount first; every key of every period has them.
            let all = try await Self.board(k, ["board": "activity", "activity": "squats", "period": "all", "scope": "friends"])
            #expect(Self.entries(all).map { $0["score"] } == [30, 12] && Self.entries(all).map { $0["rank"] } == [1, 2])
            #expect(all["me"]?["rank"] == 2 && all["key"] == "all")
            for user in [east, west] {
                let days = try await LaurelTestDatabase.scalar(
                    "SELECT string_agg(DISTINCT day::text, ',') FROM laurel.day_scores WHERE user_id = $1::bigint AND board = 'logs'",
                    [.text(user.id.description)])
                #expect(days == (user.id == east.id ? kDay : pDay))
            }
        }
    }

    @Test func aDeletedLogLowersTheScoresAndABackfillRaisesAnEarlierDay() async throws {
        let user = try await LaurelTestDatabase.createUser("deleter")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            Engine.ok(try await client.request("LOG", Engine.log("pushups", amount: 10, id: "keep")))
            Engine.ok(try await client.request("LOG", Engine.log("pushups", amount: 7, id: "drop")))
            let yesterday = Date().addingTimeInterval(-86_400)
            Engine.ok(try await client.request("LOG", Engine.log("pushups", amount: 5, at: yesterday, id: "back")))
            func score(_ board: String, _ period: String, key: String? = nil) async throws -> Int? {
                var argument: JSONObject = ["board": .string(board), "period": .string(period), "scope": "friends"]
                if board == "activity" { argument["activity"] = "pushups" }
                if let key { argument["key"] = .string(key) }
                return try await Self.board(client, argument)["me"]?["score"]?.intValue
            }
            #expect(try await score("logs", "day") == 2)
            #expect(try await score("logs", "all") == 3)
            // The month holds today's two and yesterday's one when yesterday lies in the same month.
            let sameMonth = LeaderboardPeriod.month.key(of: LocalDay(of: yesterday, in: TimeZone(identifier: "UTC")!))
                == LeaderboardPeriod.month.key(of: LocalDay(of: Date(), in: TimeZone(identifier: "UTC")!))
            #expect(try await score("logs", "month") == (sameMonth ? 3 : 2))
            #expect(try await score("activity", "all") == 22)
            let yesterdayKey = LocalDay(of: yesterday, in: TimeZone(identifier: "UTC")!).description
            #expect(try await score("activity", "day", key: yesterdayKey) == 5)
            // Today: 2 logs (20 XP), an active day (5), and the unlocks of today's first log (50 each).
            let xpToday = try #require(try await score("xp", "day"))
            let xpAll = try #require(try await score("xp", "all"))
            let profile = Engine.ok(try await client.request("PROFILE"))
            #expect(profile["xp"]?.intValue == xpAll, "all-time XP is the profile's XP")

            Engine.ok(try await client.request("LOG.DELETE", ["id": "drop"]))
            #expect(try await score("logs", "day") == 1)
            #expect(try await score("activity", "all") == 15)
            #expect(try await score("xp", "day") == xpToday - ExperienceFormula.perLog)
            #expect(try await score("xp", "all") == Engine.ok(try await client.request("PROFILE"))["xp"]?.intValue)
            // Every stored score equals the count over the live logs (the logs and activity boards).
            let rows = try await LaurelTestDatabase.admin().withConnection { connection in
                try connection.query("SELECT day::text AS day, amount FROM laurel.logs WHERE user_id = $1::bigint AND deleted_at IS NULL",
                                     [.text(user.id.description)]).map { (LocalDay(try $0.string("day"))!, try $0.int("amount")) }
            }
            var expected: [String: Int] = [:]
            for (day, amount) in rows {
                expected["logs|\(day)", default: 0] += 1
                expected["activity:pushups|\(day)", default: 0] += amount
            }
            let stored = try await LaurelTestDatabase.admin().withConnection { connection in
                try connection.query(
                    """
                    SELECT board, day::text AS day, score FROM laurel.day_scores
                     WHERE user_id = $1::bigint AND board IN ('logs', 'activity:pushups') AND score > 0
                    """, [.text(user.id.description)]).map { ("\(try $0.string("board"))|\(try $0.string("day"))", try $0.int("score")) }
            }
            #expect(Dictionary(uniqueKeysWithValues: stored) == expected)
        }
    }

    @Test func pagesVisitEveryEntryOnceInOrderAndAroundMeCentresTheAsker() async throws {
        var created: [TestUser] = []
        for index in 0..<7 { created.append(try await LaurelTestDatabase.createUser("ranked-\(index)")) }
        let users = created
        try await TestServer.run { port in
            var clients: [PushRecorder] = []
            for user in users { clients.append(try await PushRecorder.authenticated(port: port, token: user.token)) }
            for index in clients.indices.dropLast() { try await Self.befriend(clients[index], Array(clients[(index + 1)...])) }
            // Logs 1, 2, 2, 3, 4, 4, 5: ties broken by who reached the score first.
            for (index, count) in [1, 2, 2, 3, 4, 4, 5].enumerated() {
                for number in 0..<count { Engine.ok(try await clients[index].request("LOG", Engine.log("lunges", id: "l\(index)-\(number)"))) }
            }
            // Without a period or a limit: the week, all 7 on one page.
            let whole = try await Self.board(clients[0], ["board": "logs", "scope": "friends"])
            #expect(Self.entries(whole).count == 7 && whole["next"] == nil && whole["period"] == "week")
            let base: JSONObject = ["board": "logs", "period": "week", "scope": "friends"]
            var seen: [JSONObject] = []
            var argument = base
            argument["limit"] = 3
            while true {
                let page = try await Self.board(clients[0], argument)
                #expect(page["total"] == 7)
                seen += Self.entries(page)
                guard let next = page["next"] else { break }
                argument["after"] = next
            }
            #expect(seen.map { $0["rank"]?.intValue } == Array(1...7))
            #expect(seen.map { $0["score"]?.intValue } == [5, 4, 4, 3, 2, 2, 1])
            let expectedOrder = [6, 4, 5, 3, 1, 2, 0].map { JSONValue.string(users[$0].id.description) }
            #expect(seen.map { $0["user_id"] } == expectedOrder, "ties in the order the score was reached")
            // Compared as instants: a time on a whole second is written without a fraction ("…:05Z" sorts after "…:05.1Z").
            let reached = seen.compactMap { $0["reached_at"]?.stringValue.flatMap(Timestamp.parse) }
            #expect(reached[1] <= reached[2] && reached[4] <= reached[5])

            // Around the user ranked 4th: ranks 3 to 5 with a limit of 3; at the ends the page shifts.
            var around = base
            around["around_me"] = true
            around["limit"] = 3
            let middle = try await Self.board(clients[3], around)
            #expect(Self.entries(middle).map { $0["rank"] } == [3, 4, 5] && middle["me"]?["rank"] == 4)
            let top = try await Self.board(clients[6], around)
            #expect(Self.entries(top).map { $0["rank"] } == [1, 2, 3])
            let bottom = try await Self.board(clients[0], around)
            #expect(Self.entries(bottom).map { $0["rank"] } == [5, 6, 7] && bottom["next"] == nil)
            around["limit"] = 4
            #expect(Self.entries(try await Self.board(clients[3], around)).map { $0["rank"] } == [2, 3, 4, 5])
            // Without a score the asker gets the first page.
            let outsider = try await LaurelTestDatabase.createUser("no-score")
            let idle = try await PushRecorder.authenticated(port: port, token: outsider.token)
            let first = try await Self.board(idle, ["board": "logs", "around_me": true])
            #expect(first["me"] == .null && Self.entries(first).first?["rank"] == 1)

            // The operator's view of a global board agrees with LEADERBOARD's order.
            let week = try #require(Engine.ok(try await clients[6].request("LEADERBOARD", ["board": "logs"]))["key"]?.stringValue)
            let days = try #require(LeaderboardPeriod.week.days(ofKey: week))
            // Other tests' servers write to the same board, and reach this server's copy a moment later: the two agree
            // once those writes have.
            #expect(try await Eventually.holds {
                let operatorTop = try await LaurelTestDatabase.scalar(
                    "SELECT string_agg(user_id::text, ',' ORDER BY rank) FROM laurel.leaderboard('logs', $1::date, $2::date, 3)",
                    [.text(days.lowerBound.description), .text(days.upperBound.description)])
                let serverTop = Self.entries(try await Self.board(clients[6], ["board": "logs", "limit": 3])).compactMap { $0["user_id"]?.stringValue }
                return operatorTop == serverTop.joined(separator: ",")
            })
        }
    }

    @Test func optingOutHidesFromGlobalBoardsButNotFromFriends() async throws {
        let shy = try await LaurelTestDatabase.createUser("shy")
        let friend = try await LaurelTestDatabase.createUser("friend-of-shy")
        try await TestServer.run { port in
            let s = try await PushRecorder.authenticated(port: port, token: shy.token)
            let f = try await PushRecorder.authenticated(port: port, token: friend.token)
            try await Self.befriend(s, [f])
            for number in 0..<40 { Engine.ok(try await s.request("LOG", Engine.log("plank", amount: 50, id: "p\(number)"))) }
            let visibleLine = try await s.request("LEADERBOARD", ["board": "logs", "period": "day", "around_me": true, "limit": 1])
            let visible = Engine.ok(visibleLine)
            #expect(visible["me"]?["user_id"] == .string(shy.id.description))
            let totalBefore = try #require(visible["total"]?.intValue)

            Engine.ok(try await s.request("SETTINGS", ["leaderboards": false]))
            let hidden = try await Self.board(s, ["board": "logs", "period": "day"])
            #expect(hidden["me"] == .null)
            #expect((hidden["total"]?.intValue ?? 0) < totalBefore + 5, "the board lost the user (others may have joined meanwhile)")
            var argument: JSONObject = ["board": "logs", "period": "day", "limit": 100]
            while true {
                let page = try await Self.board(f, argument)
                #expect(!Self.entries(page).contains { $0["user_id"] == .string(shy.id.description) })
                guard let next = page["next"] else { break }
                argument["after"] = next
            }
            // Among friends the user still counts, for the friend and for themselves.
            let amongFriends = try await Self.board(f, ["board": "logs", "period": "day", "scope": "friends"])
            #expect(Self.entries(amongFriends).first?["user_id"] == .string(shy.id.description))
            #expect(try await Self.board(s, ["board": "logs", "period": "day", "scope": "friends"])["me"]?["score"] == 40)

            Engine.ok(try await s.request("SETTINGS", ["leaderboards": true]))
            #expect(try await Self.board(s, ["board": "logs", "period": "day"])["me"]?["score"] == 40)
        }
    }

    @Test func refusals() async throws {
        let user = try await LaurelTestDatabase.createUser("asks-badly")
        try await TestServer.run { port in
            let client = try await PushRecorder.authenticated(port: port, token: user.token)
            Engine.ok(try await client.request("ACTIVITY.CREATE", ["name": "Juggling", "unit": "times"]))
            func field(_ argument: JSONObject?) async throws -> (String?, String?) {
                let answer = try await client.request("LEADERBOARD", argument)
                return (answer.errorCode, answer.errorField)
            }
            #expect(try await field(nil) == ("invalid_argument", "board"))
            #expect(try await field(["board": "streak"]) == ("invalid_argument", "board"))
            #expect(try await field(["board": "activity"]) == ("invalid_argument", "activity"))
            #expect(try await field(["board": "logs", "activity": "squats"]) == ("invalid_argument", "activity"))
            #expect(try await field(["board": "activity", "activity": "Juggling"]) == ("invalid_argument", "activity"))
            #expect(try await field(["board": "activity", "activity": "unicycling"]) == ("not_found", "activity"))
            #expect(try await field(["board": "logs", "period": "year"]) == ("invalid_argument", "period"))
            #expect(try await field(["board": "logs", "period": "day", "key": "2020-01-01"]) == ("invalid_argument", "key"))
            #expect(try await field(["board": "logs", "period": "week", "key": "2026-11-26"]) == ("invalid_argument", "key"))
            #expect(try await field(["board": "logs", "scope": "team"]) == ("invalid_argument", "scope"))
            #expect(try await field(["board": "logs", "limit": 0]) == ("invalid_argument", "limit"))
            #expect(try await field(["board": "logs", "limit": 101]) == ("invalid_argument", "limit"))
            #expect(try await field(["board": "logs", "after": "nonsense"]) == ("invalid_argument", "after"))
            #expect(try await field(["board": "logs", "after": "1.2.3.4", "around_me": true]) == ("invalid_argument", "after"))
            // A period that ended within 90 days is readable, and an empty board answers empty.
            let old = LocalDay(of: Date().addingTimeInterval(-80 * 86_400), in: TimeZone(identifier: "UTC")!).description
            let empty = Engine.ok(try await client.request("LEADERBOARD", ["board": "challenges", "period": "day", "key": .string(old), "scope": "friends"]))
            #expect(empty["entries"] == [] && empty["me"] == .null && empty["total"] == 0 && empty["next"] == nil)
        }
    }
}
