import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// LOGS: newest first, filtered by activity and local days, in pages chained with `next` and `before`.
@Suite struct LogQueryTests {
    /// Logs one per day, `daysAgo` days back at 10:00 UTC, and returns the ids in the order logged.
    private static func logDays(_ client: LineClient, _ plan: [(activity: String, daysAgo: Int)], prefix: String) async throws -> [String] {
        var ids: [String] = []
        for (index, entry) in plan.enumerated() {
            let id = "\(prefix)\(index + 1)"
            let at = TestTime.utcDay(offsetBy: -entry.daysAgo, hour: 10)
            let answer = try await client.request(
                "LOG", ["activity": .string(entry.activity), "amount": .int(index + 1), "at": .string(TestTime.utc(at)), "id": .string(id)])
            #expect(answer.kind == "OK", "\(answer)")
            #expect(answer.okObject["log"]?.objectValue?["day"]?.stringValue == TestTime.localDay(of: at, in: "UTC"))
            ids.append(id)
        }
        return ids
    }

    private static func ids(_ answer: LineClient.Line) -> [String] {
        (answer.okObject["logs"]?.arrayValue ?? []).compactMap { $0.objectValue?["id"]?.stringValue }
    }

    private static func day(_ daysAgo: Int) -> String {
        TestTime.localDay(of: TestTime.utcDay(offsetBy: -daysAgo, hour: 10), in: "UTC")
    }

    @Test func logsAreNewestFirstAndFilterByActivityAndDays() async throws {
        let user = try await LaurelTestDatabase.createUser("logs-filter")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let l = try await Self.logDays(
                client, [("pushups", 5), ("squats", 4), ("pushups", 3), ("pushups", 2), ("squats", 1)], prefix: "f")

            let all = try await client.request("LOGS")
            #expect(Self.ids(all) == [l[4], l[3], l[2], l[1], l[0]])
            #expect(all.okObject["next"] == nil, "one page holds everything")
            let first = try #require(all.okObject["logs"]?.arrayValue?.last?.objectValue)
            #expect(first == [
                "id": .string(l[0]), "activity": "pushups", "amount": 1,
                "at": .string(TestTime.utc(TestTime.utcDay(offsetBy: -5, hour: 10))), "day": .string(Self.day(5)),
            ])

            #expect(Self.ids(try await client.request("LOGS", ["activity": "pushups"])) == [l[3], l[2], l[0]])
            #expect(Self.ids(try await client.request("LOGS", ["activity": " SQUATS "])) == [l[4], l[1]])
            #expect(Self.ids(try await client.request("LOGS", ["activity": "plank"])) == [])
            #expect(Self.ids(try await client.request("LOGS", ["from": .string(Self.day(4)), "to": .string(Self.day(2))])) == [l[3], l[2], l[1]])
            #expect(Self.ids(try await client.request("LOGS", ["from": .string(Self.day(2))])) == [l[4], l[3]])
            #expect(Self.ids(try await client.request("LOGS", ["to": .string(Self.day(4))])) == [l[1], l[0]])
            #expect(Self.ids(try await client.request("LOGS", ["from": .string(Self.day(3)), "to": .string(Self.day(3))])) == [l[2]])
            #expect(Self.ids(try await client.request("LOGS", [
                "activity": "pushups", "from": .string(Self.day(4)), "to": .string(Self.day(1)),
            ])) == [l[3], l[2]])

            #expect(try await client.request("LOG.DELETE", ["id": .string(l[2])]).kind == "OK")
            #expect(Self.ids(try await client.request("LOGS")) == [l[4], l[3], l[1], l[0]], "deleted logs are not listed")
        }
    }

    @Test func pagesChainWithNextAndBefore() async throws {
        let user = try await LaurelTestDatabase.createUser("logs-pages")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let l = try await Self.logDays(
                client, [("pushups", 5), ("squats", 4), ("pushups", 3), ("pushups", 2), ("squats", 1)], prefix: "p")

            let page1 = try await client.request("LOGS", ["limit": 2])
            #expect(Self.ids(page1) == [l[4], l[3]])
            let next1 = try #require(page1.okObject["next"]?.stringValue)
            let page2 = try await client.request("LOGS", ["limit": 2, "before": .string(next1)])
            #expect(Self.ids(page2) == [l[2], l[1]])
            let next2 = try #require(page2.okObject["next"]?.stringValue)
            let page3 = try await client.request("LOGS", ["limit": 2, "before": .string(next2)])
            #expect(Self.ids(page3) == [l[0]])
            #expect(page3.okObject["next"] == nil)

            let exact = try await client.request("LOGS", ["limit": 5])
            #expect(Self.ids(exact).count == 5)
            #expect(exact.okObject["next"] == nil, "no next when nothing is left")

            var seen: [String] = []
            var before: String?
            for _ in 0..<5 {
                var argument: JSONObject = ["activity": "pushups", "limit": 1]
                if let before { argument["before"] = .string(before) }
                let page = try await client.request("LOGS", argument)
                seen += Self.ids(page)
                before = page.okObject["next"]?.stringValue
                if before == nil { break }
            }
            #expect(seen == [l[3], l[2], l[0]], "paging keeps the filter")
        }
    }

    @Test func logsAtTheSameInstantPageInTheOrderTheyWereLogged() async throws {
        let user = try await LaurelTestDatabase.createUser("logs-ties")
        let at = TestTime.utc(TestTime.utcDay(offsetBy: -3, hour: 12))
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            for id in ["tie-a", "tie-b", "tie-c"] {
                #expect(try await client.request("LOG", ["activity": "plank", "amount": 30, "at": .string(at), "id": .string(id)]).kind == "OK")
            }
            var seen: [String] = []
            var before: String?
            for _ in 0..<4 {
                var argument: JSONObject = ["limit": 1]
                if let before { argument["before"] = .string(before) }
                let page = try await client.request("LOGS", argument)
                seen += Self.ids(page)
                before = page.okObject["next"]?.stringValue
                if before == nil { break }
            }
            #expect(seen == ["tie-c", "tie-b", "tie-a"])
        }
    }

    @Test func badQueriesAreRefused() async throws {
        let user = try await LaurelTestDatabase.createUser("logs-bad")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await client.expectRefusals(
                [
                    Refusal(verb: "LOGS", argument: ["limit": 0], code: "invalid_argument", field: "limit", because: "limit 0"),
                    Refusal(verb: "LOGS", argument: ["limit": 1001], code: "invalid_argument", field: "limit", because: "limit 1001"),
                    Refusal(verb: "LOGS", argument: ["limit": "10"], code: "invalid_argument", field: "limit", because: "a string"),
                    Refusal(verb: "LOGS", argument: ["from": "2026-13-01"], code: "invalid_argument", field: "from", because: "month 13"),
                    Refusal(verb: "LOGS", argument: ["to": "2026-11-20T00:00:00Z"], code: "invalid_argument", field: "to",
                            because: "a timestamp, not a date"),
                    Refusal(verb: "LOGS", argument: ["from": "2026-11-20", "to": "2026-11-19"], code: "invalid_argument", field: "to",
                            because: "to before from"),
                    Refusal(verb: "LOGS", argument: ["before": "no-such-log"], code: "not_found", field: "before", because: "unknown cursor"),
                    Refusal(verb: "LOGS", argument: ["activity": "burpees"], code: "not_found", field: "activity", because: "unknown activity"),
                    Refusal(verb: "LOGS", argument: ["page": 2], code: "invalid_argument", field: "page", because: "an unknown field"),
                ],
                storedRows: { try await LaurelTestDatabase.logCount(of: user) })
            #expect(try await client.request("LOGS", ["limit": 1000]).kind == "OK")
            #expect(try await client.request("LOGS", ["limit": 1]).kind == "OK")
        }
    }
}
