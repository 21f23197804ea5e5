import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Synchronization
import Testing

/// SUBSCRIPTION and TRIAL.START over real sockets, and the SUBSCRIPTION pushes that the operators' functions and
/// the passing of time cause, on one server instance and on two.
@Suite struct SubscriptionTests {
    static let freeEntitlements: JSONValue = ["templates": false, "template_limit": 0]
    static let premiumEntitlements: JSONValue = ["templates": true, "template_limit": 100]

    @Test func aFreeUserHasNoTemplatesAndATrialToStart() async throws {
        let user = try await LaurelTestDatabase.createUser("sub-free")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let answer = try await client.request("SUBSCRIPTION")
            #expect(answer.kind == "OK")
            #expect(answer.object == [
                "tier": "free", "status": "free", "trial_available": true, "entitlements": Self.freeEntitlements,
            ])
        }
    }

    @Test func aTrialIsPremiumForFourteenDaysAndReachesEveryConnection() async throws {
        let user = try await LaurelTestDatabase.createUser("sub-trial")
        try await TestServer.run { port in
            let asking = try await LineClient.authenticated(port: port, token: user.token)
            let watching = try await LineClient.authenticated(port: port, token: user.token)

            let answer = try await asking.request("TRIAL.START")
            #expect(answer.kind == "OK", "\(answer)")
            #expect(answer.object["tier"] == "premium")
            #expect(answer.object["status"] == "trial")
            #expect(answer.object["trial_available"] == false)
            #expect(answer.object["expires_at"] == nil)
            #expect(answer.object["entitlements"] == Self.premiumEntitlements)
            let endsAt = try #require(answer.object["trial_ends_at"]?.stringValue.flatMap(Timestamp.parse))
            let fourteenDays = Date().addingTimeInterval(14 * 86_400)
            #expect(abs(endsAt.timeIntervalSince(fourteenDays)) < 3600, "trial ends at \(endsAt)")

            let lastSeqText = try await LaurelTestDatabase.scalar(
                "SELECT last_seq FROM laurel.progress WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
            let lastSeq = try #require(lastSeqText.flatMap { Int($0) })
            for client in [asking, watching] {
                let push = try await client.push("SUBSCRIPTION")
                #expect(push.object["seq"]?.intValue == lastSeq)
                #expect(Self.withoutSeq(push) == answer.object)
            }

            let read = try await watching.request("SUBSCRIPTION")
            #expect(read.object == answer.object)

            let overview = try await SubscriptionRows.overview(of: user)
            #expect(overview == "premium/trial")
        }
    }

    @Test func aSecondTrialIsAConflictAndChangesNothing() async throws {
        let user = try await LaurelTestDatabase.createUser("sub-again")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let first = try await client.request("TRIAL.START")
            #expect(first.kind == "OK")
            _ = try await client.push("SUBSCRIPTION")
            let before = try await SubscriptionRows.snapshot(of: user)

            let second = try await client.request("TRIAL.START")
            #expect(second.errorCode == "conflict")
            #expect(try await SubscriptionRows.snapshot(of: user) == before)
            #expect(before.subscriptions == 1 && before.pushes == 1 && before.trialUsed)

            // Even after the trial is over and gone from the subscriptions, it stays used.
            try await LaurelTestDatabase.scalar("DELETE FROM laurel.subscriptions WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
            let third = try await client.request("TRIAL.START")
            #expect(third.errorCode == "conflict")
            let read = try await client.request("SUBSCRIPTION")
            #expect(read.object["trial_available"] == false)
        }
    }

    @Test func aGrantIsPushedAndItsEndIsPushedOnce() async throws {
        let user = try await LaurelTestDatabase.createUser("sub-grant")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, '2 seconds')", [.text(user.name)])

            let active = try await client.push("SUBSCRIPTION")
            #expect(active.object["status"] == "active")
            #expect(active.object["tier"] == "premium")
            #expect(active.object["expires_at"]?.stringValue.flatMap(Timestamp.parse) != nil)
            #expect(active.object["trial_available"] == true)
            #expect(active.object["entitlements"] == Self.premiumEntitlements)

            let lapsed = try await client.push("SUBSCRIPTION", timeout: .seconds(20))
            #expect(Self.withoutSeq(lapsed) == [
                "tier": "free", "status": "lapsed", "trial_available": true, "entitlements": Self.freeEntitlements,
            ])
            let activeSeq = try #require(active.object["seq"]?.intValue)
            #expect(lapsed.object["seq"]?.intValue == activeSeq + 1)
            #expect(try await SubscriptionRows.overview(of: user) == "free/lapsed")
            #expect(try await SubscriptionRows.snapshot(of: user).pushes == 2)
        }
    }

    @Test func twoInstancesDeliverEachPushOnceToTheirClients() async throws {
        let user = try await LaurelTestDatabase.createUser("sub-two")
        try await TestServer.run { firstPort in
            try await TestServer.run { secondPort in
                let first = try await LineClient.authenticated(port: firstPort, token: user.token)
                let second = try await LineClient.authenticated(port: secondPort, token: user.token)
                try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, '2 seconds')", [.text(user.name)])

                for client in [first, second] {
                    let active = try await client.push("SUBSCRIPTION")
                    #expect(active.object["status"] == "active")
                    let lapsed = try await client.push("SUBSCRIPTION", timeout: .seconds(20))
                    #expect(lapsed.object["status"] == "lapsed")
                    #expect(lapsed.object["seq"]?.intValue == (active.object["seq"]?.intValue ?? 0) + 1)
                }
                // Both watchers saw the end; it was stored once.
                #expect(try await SubscriptionRows.snapshot(of: user).pushes == 2)
                for client in [first, second] {
                    let listed = try await client.request("NOTIFICATIONS")
                    #expect(listed.object["notifications"]?.arrayValue?.count == 2)
                    _ = try await client.request("PING")
                    #expect(client.pushes.withLock { $0.filter { $0.kind == "SUBSCRIPTION" } }.isEmpty)
                }
            }
        }
    }

    @Test func aGrantWithoutEndAndItsRevocationArePushed() async throws {
        let user = try await LaurelTestDatabase.createUser("sub-revoke")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, NULL)", [.text(user.name)])
            let active = try await client.push("SUBSCRIPTION")
            #expect(Self.withoutSeq(active) == [
                "tier": "premium", "status": "active", "trial_available": true, "entitlements": Self.premiumEntitlements,
            ])
            #expect(try await SubscriptionRows.overview(of: user) == "premium/active")

            try await LaurelTestDatabase.scalar("SELECT laurel.revoke_premium($1::text)", [.text(user.name)])
            let revoked = try await client.push("SUBSCRIPTION")
            #expect(revoked.object["status"] == "lapsed")
            #expect(revoked.object["entitlements"] == Self.freeEntitlements)
            #expect(try await SubscriptionRows.overview(of: user) == "free/lapsed")

            // Revoking what is not there tells nothing.
            try await LaurelTestDatabase.scalar("SELECT laurel.revoke_premium($1::text)", [.text(user.name)])
            #expect(try await SubscriptionRows.snapshot(of: user).pushes == 2)
        }
    }

    static func withoutSeq(_ push: LineClient.Line) -> JSONObject {
        var object = push.object
        object["seq"] = nil
        return object
    }
}
