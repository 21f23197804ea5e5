import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// A combo template over real sockets and PostgreSQL: created with `combo` instead of `activity` and checked; a day
/// counts once every activity reached its amount (a backfill counts on its own day); exported and imported into
/// another account by activity names.
@Suite struct ComboTemplateTests {
    static let combo: JSONValue = [["activity": "pushups", "amount": 10], ["activity": "squats", "amount": 10]]

    @Test func aComboDayUnlocksAndTheComboTravels() async throws {
        let user = try await LaurelTestDatabase.createUser("combo")
        let other = try await LaurelTestDatabase.createUser("combo-import")
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            for (argument, field) in [
                (["type": "combo", "combo": [["activity": "pushups", "amount": 10]]], "combo"),
                (["type": "combo", "combo": [["activity": "pushups", "amount": 10], ["activity": "Pushups", "amount": 5]]], "combo"),
                (["type": "combo", "combo": [["activity": "pushups", "amount": 0], ["activity": "squats", "amount": 5]]], "combo"),
                (["type": "combo", "activity": "pushups", "combo": Self.combo], "activity"),
                (["type": "volume", "activity": "pushups", "combo": Self.combo], "combo"),
            ] as [(JSONObject, String)] {
                let refused = try await app.request("TEMPLATE.CREATE", argument)
                #expect(refused.errorCode == "invalid_argument" && refused.errorField == field, "\(argument)")
            }
            let unknown = try await app.request("TEMPLATE.CREATE", ["type": "combo", "combo": [["activity": "pushups", "amount": 1], ["activity": "juggling", "amount": 1]]])
            #expect(unknown.errorCode == "not_found" && unknown.errorField == "combo")

            let (template, id) = try await Templates.created(app, ["type": "combo", "combo": Self.combo, "tiers": Templates.tiers([1, 2])])
            #expect(template["activity"] == nil && template["combo"] == [["activity": "pushups", "amount": 10], ["activity": "squats", "amount": 10]])
            #expect(Templates.achievements(template).first?["name"] == "Pushups + Squats Bronze")
            Engine.ok(try await app.request("LOG", Engine.log("pushups", amount: 10, at: TestClock.noon(daysAgo: 1))))
            let day = Engine.ok(try await app.request("LOG", Engine.log("squats", amount: 10, at: TestClock.noon(daysAgo: 1, minute: 5))))
            #expect(Engine.ids(day["unlocked"]).contains("tpl.\(id).1"))

            let document = Engine.ok(try await app.request("TEMPLATE.EXPORT"))
            let importer = try await PushRecorder.authenticated(port: port, token: other.token)
            try await Templates.startTrial(importer)
            let imported = Engine.ok(try await importer.request("TEMPLATE.IMPORT", ["document": .object(document)]))
            let created = (imported["created"]?.arrayValue ?? []).compactMap(\.objectValue)
            #expect(created.first?["type"] == "combo" && created.first?["combo"] == template["combo"], "\(imported)")
        }
    }

    @Test func aComboListingIsInstalledByActivityNames() async throws {
        let author = try await LaurelTestDatabase.createUser("combo-author")
        let installer = try await LaurelTestDatabase.createUser("combo-installer")
        let skips = "Skips \(UUID().uuidString.prefix(6))"
        try await TestServer.run { port in
            let writer = try await PushRecorder.authenticated(port: port, token: author.token)
            try await Templates.startTrial(writer)
            _ = try await Templates.activity(writer, skips)
            let (_, id) = try await Templates.created(writer, ["type": "combo", "combo": [["activity": "pushups", "amount": 5], ["activity": .string(skips), "amount": 50]]])
            let listing = Engine.ok(try await writer.request("TEMPLATE.PUBLISH", ["id": .string(id)]))
            #expect(listing["combo"] == [["activity": "Pushups", "amount": 5], ["activity": .string(skips), "amount": 50]] && listing["activity_name"] == nil)
            let listingID = try #require(listing["listing_id"]?.stringValue)

            let app = try await PushRecorder.authenticated(port: port, token: installer.token)
            try await Templates.startTrial(app)
            let missing = try await app.request("TEMPLATE.INSTALL", ["listing_id": .string(listingID)])
            #expect(missing.errorCode == "not_found" && missing.errorField == "combo")
            _ = try await Templates.activity(app, skips.lowercased())
            let installed = Engine.ok(try await app.request("TEMPLATE.INSTALL", ["listing_id": .string(listingID)]))
            #expect(installed["type"] == "combo" && installed["combo"]?.arrayValue?.count == 2)
        }
    }
}
