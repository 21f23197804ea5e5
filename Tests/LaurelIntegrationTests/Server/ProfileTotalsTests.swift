import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// PROFILE's totals: live logs, active days and the amount per activity, following LOG and LOG.DELETE.
@Suite struct ProfileTotalsTests {
    private static func totals(_ client: LineClient) async throws -> JSONObject {
        let profile = try await client.request("PROFILE")
        #expect(profile.kind == "OK", "\(profile)")
        return profile.okObject["totals"]?.objectValue ?? [:]
    }

    @Test func totalsCountLiveLogsActiveDaysAndAmountsPerActivity() async throws {
        let user = try await LaurelTestDatabase.createUser("profile")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let profile = try await client.request("PROFILE")
            #expect(profile.okObject["user"]?.stringValue == user.name)
            #expect(profile.okObject["tier"]?.stringValue == "free")
            #expect(try await Self.totals(client) == ["logs": 0, "active_days": 0, "by_activity": [:]])

            let created = try await client.request("ACTIVITY.CREATE", ["name": "Pull-ups"])
            let custom = try #require(created.okObject["id"]?.stringValue)
            let twoDaysAgo = TestTime.utc(TestTime.utcDay(offsetBy: -2, hour: 9))
            let yesterday = TestTime.utc(TestTime.utcDay(offsetBy: -1, hour: 9))
            let plan: [(String, Int, String, String)] = [
                ("pushups", 10, twoDaysAgo, "a"), ("pushups", 5, twoDaysAgo, "b"), ("squats", 20, yesterday, "c"),
                (custom, 7, yesterday, "d"),
            ]
            for (activity, amount, at, id) in plan {
                let answer = try await client.request(
                    "LOG", ["activity": .string(activity), "amount": .int(amount), "at": .string(at), "id": .string(id)])
                #expect(answer.kind == "OK", "\(answer)")
            }
            #expect(try await Self.totals(client) == [
                "logs": 4, "active_days": 2, "by_activity": ["pushups": 15, "squats": 20, custom: 7],
            ])

            #expect(try await client.request("LOG.DELETE", ["id": "b"]).kind == "OK")
            #expect(try await client.request("LOG.DELETE", ["id": "c"]).kind == "OK")
            let after = try await Self.totals(client)
            #expect(after["logs"]?.intValue == 2)
            #expect(after["active_days"]?.intValue == 2, "the custom activity's log keeps yesterday active")
            #expect(after["by_activity"]?.objectValue?["pushups"]?.intValue == 10)
            #expect(after["by_activity"]?.objectValue?["squats"] == nil || after["by_activity"]?.objectValue?["squats"]?.intValue == 0)
            #expect(after["by_activity"]?.objectValue?[custom]?.intValue == 7)

            // A deleted activity's logs keep counting.
            #expect(try await client.request("ACTIVITY.DELETE", ["id": .string(custom)]).kind == "OK")
            let deleted = try await Self.totals(client)
            #expect(deleted["logs"]?.intValue == 2)
            #expect(deleted["by_activity"]?.objectValue?[custom]?.intValue == 7)
        }
    }
}
