import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// `laurel catalog preview` and what a catalog change then does: a catalog without `first_exercise`, with
/// `total_100` now at 3 logs and a new `five_logs`. The preview counts, per change, who would unlock and who would
/// lose, and the XP shift, reading without writing; a server restarted on that catalog agrees (XP counts only unlocks
/// of achievements that exist now; the removed unlock stays in the history).
@Suite struct CatalogPreviewTests {
    /// The standfit catalog with those three changes, written to a file of its own.
    static func changedCatalog() throws -> String {
        try CatalogVariant.standfit(named: "standfit-changed") { _, achievements in
            achievements.removeAll { $0["id"] as? String == "first_exercise" }
            for index in achievements.indices where achievements[index]["id"] as? String == "total_100" { achievements[index]["target"] = 3 }
            achievements.append([
                "id": "five_logs", "name": "Five", "description": "Log 5 times.", "icon": "5️⃣", "category": "milestones", "tier": "bronze",
                "rule": ["kind": "total_logs"], "target": 5,
            ])
        }
    }

    @Test func thePreviewCountsWhatTheServerThenDoes() async throws {
        let five = try await LaurelTestDatabase.createUser("preview-five")
        let one = try await LaurelTestDatabase.createUser("preview-one")
        try await TestServer.run { port in
            for (user, count) in [(five, 5), (one, 1)] {
                let client = try await LineClient.authenticated(port: port, token: user.token)
                for index in 0..<count {
                    Engine.ok(try await client.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1, minute: index))))
                }
            }
        }
        let file = try Self.changedCatalog()
        let before = try await LaurelTestDatabase.scalar("SELECT count(*) FROM laurel.unlocks WHERE user_id IN ($1::bigint, $2::bigint)",
                                                         [.int(Int(five.id.rawValue)), .int(Int(one.id.rawValue))])

        // In process, over these two users only: exact counts.
        let store = PostgresStore(pool: try await LaurelTestDatabase.admin())
        var preview = CatalogPreview(from: Rulebook(catalog: try ShippedCatalogs.load("standfit")), to: Rulebook(catalog: try ShippedCatalogs.load(file)))
        for user in [five, one] {
            let current = preview
            preview = try await store.read(user: user.id) { reader in
                var next = current
                try next.add(user.id, reading: reader, now: Date())
                return next
            }
        }
        #expect(preview.users == 2)
        #expect(preview.achievements.map { "\($0.id) \($0.change.rawValue) \($0.wouldUnlock) \($0.wouldLose)" } == [
            "total_100 changed 1 0", "five_logs added 1 0", "first_exercise removed 0 2",
        ])
        // 5 logs: +50 (total_100) +50 (five_logs) -50 (first_exercise); 1 log: -50.
        #expect((preview.xpUsersChanged, preview.xpSum, preview.xpMax) == (2, 0, 50))
        #expect((preview.levelsUp, preview.levelsDown) == (0, 0))
        #expect(preview.json["challenge_pool"] == ["added": [], "removed": [], "changed": []])

        // The command, over the whole test database: the same kinds of line, and nothing written.
        let (status, output, errors) = try ServerProcess.runCommand([
            "catalog", "preview", "--catalog", file, "--from", "standfit", "--database-url", try LaurelTestDatabase.url(), "--json",
        ])
        #expect(status == 0, "\(errors)")
        let report = try JSONParser.parse(Array(output.utf8)).objectValue
        #expect((report?["users"]?.intValue ?? 0) >= 2)
        let removed = report?["achievements"]?.arrayValue?.first { $0.objectValue?["id"] == "first_exercise" }?.objectValue
        #expect(removed?["change"] == "removed" && (removed?["would_lose"]?.intValue ?? 0) >= 2)
        let (tableStatus, table, _) = try ServerProcess.runCommand(["catalog", "preview", "--catalog", file, "--database-url", try LaurelTestDatabase.url()])
        #expect(tableStatus == 0 && table.contains("first_exercise") && table.contains("removed") && table.contains("challenge pool"))
        #expect(try await LaurelTestDatabase.scalar("SELECT count(*) FROM laurel.unlocks WHERE user_id IN ($1::bigint, $2::bigint)",
                                                    [.int(Int(five.id.rawValue)), .int(Int(one.id.rawValue))]) == before)

        // The server on the changed catalog: its first evaluation of each user agrees with the preview.
        try await TestServer.run(catalog: file) { port in
            let fiveClient = try await LineClient.authenticated(port: port, token: five.token)
            let fiveProfile = Engine.ok(try await fiveClient.request("PROFILE"))
            // 5 logs (50) + 1 active day (5) + total_100 and five_logs (100); first_exercise no longer counts.
            #expect(fiveProfile["xp"] == 155 && fiveProfile["unlocked"] == 2)
            let export = Engine.ok(try await fiveClient.request("ACCOUNT.EXPORT"))
            let history = (export["unlocks"]?.arrayValue ?? []).compactMap { $0.objectValue?["achievement"]?.stringValue }
            #expect(Set(history) == ["first_exercise", "total_100", "five_logs"])
            let oneClient = try await LineClient.authenticated(port: port, token: one.token)
            #expect(Engine.ok(try await oneClient.request("PROFILE"))["xp"] == 15)
        }
    }
}
