import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// The limits of rules.md ("Limits and validation") as an operator sets them: a user's log rate that holds across
/// instances and reconnects (the allowance is stored with the user), a request rate per connection for every verb,
/// and SUBSCRIPTION's `template_limit` from the configured template limit.
@Suite struct RateLimitTests {
    /// A burst of 3 that refills one log every 100 s: nothing refills while the test runs.
    static let threeLogs: ServerConfiguration = {
        var configuration = ServerConfiguration(port: 0)
        configuration.limits.logsPerSecond = 0.01
        configuration.limits.logBurst = 3
        return configuration
    }()

    @Test func theLogRateHoldsAcrossInstancesAndReconnects() async throws {
        let user = try await LaurelTestDatabase.createUser("rate-instances")
        try await TestServer.withServer(configuration: Self.threeLogs) { first in
            try await TestServer.withServer(configuration: Self.threeLogs) { second in
                let here = try await LineClient.authenticated(port: first.port, token: user.token)
                #expect(try await here.request("LOG", ["activity": "pushups", "id": "rate-1"]).kind == "OK")
                #expect(try await here.request("LOG", ["activity": "squats", "id": "rate-2"]).kind == "OK")

                // The second instance's session starts with a whole burst in its memory; the stored allowance has one.
                let there = try await LineClient.authenticated(port: second.port, token: user.token)
                #expect(try await there.request("LOG", ["activity": "pushups", "id": "rate-3"]).kind == "OK")
                let overThere = try await there.request("LOG", ["activity": "pushups", "id": "rate-4"])
                #expect(overThere.errorCode == "rate_limited", "\(overThere)")
                #expect((overThere.object["retry_after_ms"]?.intValue ?? 0) > 0)
                // The first instance's memory still has one of its three, but the stored allowance is spent.
                let overHere = try await here.request("LOG", ["activity": "pushups", "id": "rate-5"])
                #expect(overHere.errorCode == "rate_limited", "\(overHere)")
                // Lesson completions and events take the transactional path; they spend the same allowance.
                let event = try await there.request("EVENT", ["name": "share", "id": "rate-event"])
                #expect(event.errorCode == "rate_limited", "\(event)")

                // Reconnecting gives a new session a whole burst in memory, and still nothing more.
                await here.close()
                await there.close()
                #expect(try await Eventually.holds(timeout: .seconds(10)) { first.counter("laurel_connections_open") == 0 })
                let again = try await LineClient.authenticated(port: first.port, token: user.token)
                let afterReconnect = try await again.request("LOG", ["activity": "pushups", "id": "rate-6"])
                #expect(afterReconnect.errorCode == "rate_limited", "\(afterReconnect)")
                // A retry of a stored log is answered as before: it stores nothing, so it spends nothing.
                let retry = try await again.request("LOG", ["activity": "pushups", "id": "rate-3"])
                #expect(retry.okObject["duplicate"]?.boolValue == true, "\(retry)")
            }
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 3)
        #expect(try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.reported_events WHERE user_id = $1::bigint", [.text(user.id.description)]) == 0)
    }

    @Test func everyVerbCountsAgainstTheConnectionsRequestRate() async throws {
        let user = try await LaurelTestDatabase.createUser("rate-connection")
        var configuration = ServerConfiguration(port: 0)
        configuration.connectionRequestsPerSecond = 0.01
        configuration.connectionRequestBurst = 4
        try await TestServer.run(configuration: configuration) { port in
            // AUTH is the first of the four.
            let busy = try await LineClient.authenticated(port: port, token: user.token)
            #expect(try await busy.request("PING").kind == "OK")
            #expect(try await busy.request("PROFILE").kind == "OK")
            #expect(try await busy.request("SETTINGS").kind == "OK")
            for verb in ["PING", "PROFILE", "LOG"] {
                let refused = try await busy.request(verb, verb == "LOG" ? ["activity": "pushups"] : nil)
                #expect(refused.errorCode == "rate_limited", "\(verb): \(refused)")
                #expect((refused.object["retry_after_ms"]?.intValue ?? 0) > 0)
            }
            // Another connection of the same user has an allowance of its own.
            let other = try await LineClient.authenticated(port: port, token: user.token)
            #expect(try await other.request("LOG", ["activity": "pushups"]).kind == "OK")
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 1)
    }

    @Test func subscriptionReportsTheConfiguredTemplateLimit() async throws {
        let user = try await LaurelTestDatabase.createUser("rate-templates")
        var configuration = ServerConfiguration(port: 0)
        configuration.limits.templates = 7
        try await TestServer.run(configuration: configuration) { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let free = try await client.request("SUBSCRIPTION")
            #expect(free.okObject["entitlements"]?.objectValue?["template_limit"]?.intValue == 0, "\(free)")
            let trial = try await client.request("TRIAL.START")
            #expect(trial.okObject["entitlements"]?.objectValue?["template_limit"]?.intValue == 7, "\(trial)")
            let pushed = try await client.push("SUBSCRIPTION")
            #expect(pushed.object["entitlements"]?.objectValue?["template_limit"]?.intValue == 7, "\(pushed.raw)")
            let premium = try await client.request("SUBSCRIPTION")
            #expect(premium.okObject["entitlements"]?.objectValue?["template_limit"]?.intValue == 7, "\(premium)")
        }
    }
}
