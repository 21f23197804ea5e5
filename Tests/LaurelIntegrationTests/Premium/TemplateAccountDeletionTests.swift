import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// Deleting an account that has templates: everything of the user goes, templates and their unlocks included.
@Suite struct TemplateAccountDeletionTests {
    /// ACCOUNT.DELETE answers `OK`, says `BYE`, and takes the user's templates and unlocks with everything else.
    /// Several accounts go at once, as users do: each must still get its answer before its connection closes.
    @Test func accountsWithTemplatesCanBeDeleted() async throws {
        var users: [TestUser] = []
        for _ in 0..<16 { users.append(try await LaurelTestDatabase.createUser("tpl-account")) }
        try await TestServer.run { [users] port in
            var apps: [PushRecorder] = []
            for user in users {
                let app = try await PushRecorder.authenticated(port: port, token: user.token)
                try await Templates.startTrial(app)
                _ = try await Templates.activity(app, "Rowing")
                _ = try await Templates.created(app, Templates.create("Rowing", "volume", tiers: Templates.tiers([5])))
                _ = try await Templates.created(app, Templates.create("squats", "daily", tiers: Templates.tiers([5])))
                Engine.ok(try await app.request("LOG", Engine.log("Rowing", amount: 10)))
                #expect(try await PremiumRows.of(user).templateCount == 2)
                apps.append(app)
            }
            let answers = try await withThrowingTaskGroup(of: (Int, [LineClient.Line]).self) { group in
                for (index, (user, app)) in zip(users, apps).enumerated() {
                    group.addTask {
                        try await app.client.send("del ACCOUNT.DELETE " + JSONValue.object(["confirm": .string(user.name)]).serialized())
                        return (index, await app.client.linesUntilClosed() ?? [])
                    }
                }
                var answers: [Int: [LineClient.Line]] = [:]
                for try await (index, lines) in group { answers[index] = lines }
                return answers
            }
            for (index, user) in users.enumerated() {
                let lines = (answers[index] ?? []).filter { !$0.isStoredPush }
                #expect(lines.first?.tag == "del" && lines.first?.kind == "OK", "answered before closed: \(lines.map(\.raw))")
                #expect(lines.last?.kind == "BYE" && lines.last?.object["reason"] == "account_deleted", "\(lines.map(\.raw))")
                let id = PostgresValue.int(Int(user.id.rawValue))
                #expect(try await LaurelTestDatabase.count("SELECT count(*) FROM laurel.users WHERE id = $1::bigint", [id]) == 0)
                #expect(try await LaurelTestDatabase.count("SELECT count(*) FROM laurel.templates WHERE user_id = $1::bigint", [id]) == 0)
                // These tables have no foreign key to the user (laurel.delete_user_by_id empties them itself).
                for table in ["logs", "lesson_completions", "reported_events", "unlocks", "pushes", "challenges"] {
                    #expect(try await LaurelTestDatabase.count("SELECT count(*) FROM laurel.\(table) WHERE user_id = $1::bigint", [id]) == 0,
                            "laurel.\(table) keeps rows of a deleted user")
                }
            }
        }
    }
}
