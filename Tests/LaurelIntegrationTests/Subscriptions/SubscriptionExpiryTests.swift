import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// `laurel.announce_expired_subscriptions` on its own: each end is announced once however many callers race,
/// and an end that changes nothing for the user stores nothing.
@Suite struct SubscriptionExpiryTests {
    @Test func concurrentCallsAnnounceEachEndOnce() async throws {
        var users: [TestUser] = []
        for _ in 0..<6 {
            let user = try await LaurelTestDatabase.createUser("sub-race")
            try await SubscriptionRows.insertEndedGrant(for: user)
            users.append(user)
        }
        let pool = try await LaurelTestDatabase.admin()
        try await withThrowingTaskGroup(of: Void.self) { callers in
            // One caller keeps its transaction, and the rows it marked, open for a while so the others meet them.
            callers.addTask {
                try await pool.transaction { connection in
                    _ = try connection.query("SELECT laurel.announce_expired_subscriptions()")
                    _ = try connection.query("SELECT pg_sleep(0.5)")
                }
            }
            for _ in 0..<3 {
                callers.addTask {
                    try await Task.sleep(for: .milliseconds(100))
                    try await pool.withConnection { connection in
                        _ = try connection.query("SELECT laurel.announce_expired_subscriptions()")
                    }
                }
            }
            try await callers.waitForAll()
        }
        for user in users {
            let documents = try await SubscriptionRows.pushedDocuments(of: user)
            #expect(documents.count == 1, "\(user.name): \(documents)")
            #expect(documents.first?["status"] == "lapsed")
            #expect(try await SubscriptionRows.announcedEnds(of: user) == 1)
        }
    }

    @Test func anEndUnderARunningGrantStoresNothing() async throws {
        let user = try await LaurelTestDatabase.createUser("sub-cover")
        try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, NULL)", [.text(user.name)])
        try await SubscriptionRows.insertEndedGrant(for: user)
        // The function is global and skips rows another caller holds (another test's, or a running server's
        // watcher), so call it until this user's ended grant has been looked at.
        _ = try await Eventually.holds {
            try await LaurelTestDatabase.scalar("SELECT laurel.announce_expired_subscriptions()")
            return try await SubscriptionRows.announcedEnds(of: user) == 1
        }

        let documents = try await SubscriptionRows.pushedDocuments(of: user)
        #expect(documents.count == 1)
        #expect(documents.first?["status"] == "active")
        #expect(try await SubscriptionRows.announcedEnds(of: user) == 1)
    }

    @Test func theDocumentFollowsTheRules() async throws {
        let user = try await LaurelTestDatabase.createUser("sub-doc")
        let id = PostgresValue.int(Int(user.id.rawValue))
        func document() async throws -> JSONObject {
            let text = try #require(try await LaurelTestDatabase.scalar("SELECT laurel.subscription_document($1::bigint)", [id]))
            return try #require(try JSONParser.parse(text).objectValue)
        }
        #expect(try await document()["status"] == "free")

        // A grant wins over a trial, and ends with its own end.
        try await LaurelTestDatabase.scalar("SELECT laurel.start_trial($1::bigint)", [id])
        try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, '1 day')", [.text(user.name)])
        let granted = try await document()
        #expect(granted["status"] == "active")
        #expect(granted["trial_ends_at"] == nil)
        let expires = try #require(granted["expires_at"]?.stringValue.flatMap(Timestamp.parse))
        #expect(abs(expires.timeIntervalSinceNow - 86_400) < 3600)

        // With the grant revoked, the trial is what is left.
        try await LaurelTestDatabase.scalar(
            "UPDATE laurel.subscriptions SET revoked_at = now() WHERE user_id = $1::bigint AND kind = 'grant'", [id])
        let trial = try await document()
        #expect(trial["status"] == "trial")
        #expect(trial["expires_at"] == nil)
        #expect(trial["trial_ends_at"] != nil)
        #expect(trial["trial_available"] == false)

        #expect(try await LaurelTestDatabase.scalar("SELECT laurel.start_trial($1::bigint)", [id]) == nil)
    }
}

/// The rows behind a user's subscription, read with the admin connection.
enum SubscriptionRows {
    struct Snapshot: Equatable {
        var subscriptions: Int
        var pushes: Int
        var trialUsed: Bool
    }

    static func snapshot(of user: TestUser) async throws -> Snapshot {
        let id = PostgresValue.int(Int(user.id.rawValue))
        let row = try await LaurelTestDatabase.admin().withConnection { connection in
            try connection.query(
                """
                SELECT (SELECT count(*) FROM laurel.subscriptions WHERE user_id = $1::bigint) AS subscriptions,
                       (SELECT count(*) FROM laurel.pushes WHERE user_id = $1::bigint) AS pushes,
                       (SELECT trial_used FROM laurel.users WHERE id = $1::bigint) AS trial_used
                """, [id]).first
        }
        let found = try #require(row)
        return Snapshot(subscriptions: try found.int("subscriptions"), pushes: try found.int("pushes"), trialUsed: try found.bool("trial_used"))
    }

    /// `tier/status` from `laurel.user_overview`.
    static func overview(of user: TestUser) async throws -> String? {
        try await LaurelTestDatabase.scalar(
            "SELECT tier || '/' || status FROM laurel.user_overview WHERE name = $1::text", [.text(user.name)])
    }

    /// A grant that ended an hour ago and has not been announced.
    static func insertEndedGrant(for user: TestUser) async throws {
        try await LaurelTestDatabase.scalar(
            """
            INSERT INTO laurel.subscriptions (user_id, kind, starts_at, ends_at)
            VALUES ($1::bigint, 'grant', now() - interval '2 hours', now() - interval '1 hour')
            """, [.int(Int(user.id.rawValue))])
    }

    static func pushedDocuments(of user: TestUser) async throws -> [JSONObject] {
        let rows = try await LaurelTestDatabase.admin().withConnection { connection in
            try connection.query(
                "SELECT data::text AS data FROM laurel.pushes WHERE user_id = $1::bigint AND kind = 'SUBSCRIPTION' ORDER BY seq",
                [.int(Int(user.id.rawValue))]
            ).map { try $0.string("data") }
        }
        return try rows.map { try #require(try JSONParser.parse($0).objectValue) }
    }

    static func announcedEnds(of user: TestUser) async throws -> Int? {
        try await LaurelTestDatabase.scalar(
            "SELECT count(*) FROM laurel.subscriptions WHERE user_id = $1::bigint AND announced_end",
            [.int(Int(user.id.rawValue))]
        ).flatMap { Int($0) }
    }
}
