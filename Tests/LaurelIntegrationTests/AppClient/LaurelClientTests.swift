import Foundation
import LaurelClient
import LaurelJSON
import LaurelServer
import Testing

/// The client library against a real server over real sockets: typed requests and answers, an UNLOCK pushed to
/// it, errors as the protocol's codes, and every stored push delivered once and in order however often the
/// connection goes.
@Suite struct LaurelClientTests {
    @Test func typedRequestsAnswersAndAPush() async throws {
        let user = try await LaurelTestDatabase.createUser("app-client")
        try await TestServer.run { port in
            let client = try AppClient.make(port: port, token: user.token)
            let pushes = PushCollector(client)
            await client.start()
            let profile = try await client.send(Verb.Profile())
            #expect(profile.user == user.name)
            #expect(profile.level == 1)
            #expect(await client.session?.user == user.name)

            let logged = try await client.send(Verb.Log(activity: "pushups", amount: 5, id: "app-1"))
            #expect(logged.log.id == "app-1")
            #expect(logged.log.amount == 5)
            #expect(logged.unlocked.map(\.id).contains("first_exercise"))
            let repeated = try await client.send(Verb.Log(activity: "pushups", amount: 5, id: "app-1"))
            #expect(repeated.duplicate)

            try await AppClient.eventually("the UNLOCK push") { pushes.pushes.contains { $0.kind == "UNLOCK" } }
            let unlock = try #require(pushes.pushes.first { $0.kind == "UNLOCK" })
            guard case .unlock(let achievement) = unlock.content else {
                Issue.record("UNLOCK is not typed: \(unlock)")
                return
            }
            #expect(achievement.id == "first_exercise")
            #expect(achievement.unlockedAt != nil)

            let settings = try await client.send(Verb.Settings(weeklyGoal: 2))
            #expect(settings.weeklyGoal == 2)
            let achievements = try await client.send(Verb.Achievements(status: "unlocked"))
            #expect(achievements.summary.unlocked >= 1)
            let page = try await client.send(Verb.Logs(limit: 10))
            #expect(page.logs.map(\.id) == ["app-1"])
            #expect(try await client.send(Verb.Challenges()).day.count == 10)

            await #expect(throws: LaurelClientError.self) { try await client.send(Verb.DeleteLog(id: "no-such-log")) }
            do {
                _ = try await client.send(Verb.Log(activity: "pushups", amount: 0))
                Issue.record("amount 0 was accepted")
            } catch let error as LaurelClientError {
                #expect(error.code == "invalid_argument")
                if case .server(_, _, let details) = error { #expect(details["field"] == "amount") }
            }
            await client.stop()
            #expect(await client.status == .stopped)
        }
    }

    /// The server closes idle connections after a second; another device logs while this one is away. Every
    /// stored push reaches this one once, in `seq` order, matching the user's stored pushes; an app launched again
    /// with the last `seq` it showed gets what came while it was not running, and nothing before.
    @Test func everyStoredPushArrivesOnceAcrossReconnects() async throws {
        let user = try await LaurelTestDatabase.createUser("app-client-resume")
        var configuration = ServerConfiguration(port: 0)
        // Long enough for a client on a busy machine to send its request after its AUTH's answer, short enough for
        // six reconnections in a few seconds.
        configuration.idleTimeout = .seconds(1)
        try await TestServer.run(configuration: configuration) { port in
            let device = try AppClient.make(port: port, token: user.token, lastSeenPush: 0)
            let pushes = PushCollector(device)
            await device.start()
            let other = try AppClient.make(port: port, token: user.token)
            await other.start()
            for round in 0..<6 {
                _ = try await AppClient.retrying {
                    try await other.send(Verb.Log(activity: round % 2 == 0 ? "pushups" : "squats", amount: 10 * (round + 1), id: "other-\(round)"))
                }
                // Long enough for the device's connection to be closed as idle and opened again.
                try await Task.sleep(for: .milliseconds(1300))
            }
            let stored = try await AppClient.retrying { try await other.send(Verb.Notifications(after: 0, limit: 100)) }
            try await AppClient.eventually("every stored push delivered") { pushes.pushes.last?.seq == stored.lastSeq }
            let seqs = pushes.pushes.compactMap(\.seq)
            print("client resume: \(await device.authentications) authentications, \(seqs.count) pushes delivered, \(stored.notifications.count) stored")
            #expect(await device.authentications >= 3, "the device reconnected")
            #expect(seqs == stored.notifications.map(\.seq), "each stored push once, in order")
            #expect(Set(pushes.pushes.map(\.kind)).isSuperset(of: ["UNLOCK", "LEVEL"]))

            // The app is closed; meanwhile the other device unlocks more.
            let seen = try #require(await device.lastSeq)
            await device.stop()
            for (index, (activity, amount)) in [("pushups", 100), ("squats", 1000), ("lunges", 5), ("plank", 60)].enumerated() {
                _ = try await AppClient.retrying { try await other.send(Verb.Log(activity: activity, amount: amount, id: "later-\(index)")) }
            }
            let later = try await AppClient.retrying { try await other.send(Verb.Notifications(after: seen, limit: 100)) }
            #expect(later.notifications.count >= 3, "unlocks while the app was closed")
            let relaunched = try AppClient.make(port: port, token: user.token, lastSeenPush: seen)
            let caughtUp = PushCollector(relaunched)
            await relaunched.start()
            try await AppClient.eventually("the pushes of while it was closed") { caughtUp.pushes.last?.seq == later.lastSeq }
            #expect(caughtUp.pushes.compactMap(\.seq) == later.notifications.map(\.seq))
            await relaunched.stop()
            await other.stop()
        }
    }
}
