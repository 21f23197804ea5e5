import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// The template marketplace over real sockets and PostgreSQL: a premium author publishes (again: same listing, new
/// `updated_at`); anyone browses; a premium installer's copy counts their existing logs at once; installs count each
/// user once; unpublishing by the author or an operator, or deleting the author, removes the listing and keeps the
/// copies. Each test's activity has a name of its own, so MARKET filtered by it sees only the test's listings.
@Suite struct MarketplaceTests {
    static func market(_ client: PushRecorder, _ argument: JSONObject) async throws -> (listings: [JSONObject], next: String?) {
        let answer = Engine.ok(try await client.request("MARKET", argument))
        return ((answer["listings"]?.arrayValue ?? []).compactMap(\.objectValue), answer["next"]?.stringValue)
    }

    @Test func publishBrowseInstallAndUnpublish() async throws {
        let author = try await LaurelTestDatabase.createUser("author")
        let installer = try await LaurelTestDatabase.createUser("installer")
        let free = try await LaurelTestDatabase.createUser("free")
        let activityName = "Rowing \(UUID().uuidString.prefix(6))"
        try await TestServer.run { port in
            let writer = try await PushRecorder.authenticated(port: port, token: author.token)
            try await Templates.startTrial(writer)
            _ = try await Templates.activity(writer, activityName)
            let (_, templateID) = try await Templates.created(writer, Templates.create(activityName, "volume", tiers: Templates.tiers([10, 20]), name: "Rower"))
            let published = Engine.ok(try await writer.request("TEMPLATE.PUBLISH", ["id": .string(templateID), "description": "  Ten,  then twenty "]))
            let listingID = try #require(published["listing_id"]?.stringValue)
            #expect(published["name"] == "Rower" && published["type"] == "volume" && published["activity_name"] == .string(activityName))
            #expect(published["description"] == "Ten,  then twenty" && published["author"] == .string(author.name) && published["installs"] == 0)
            #expect(published["tiers"]?.arrayValue?.count == 2 && published["published_at"] == published["updated_at"])

            // Published again after an edit: the same listing, renamed, with a later updated_at.
            Engine.ok(try await writer.request("TEMPLATE.UPDATE", ["id": .string(templateID), "name": "Rower II"]))
            try await Task.sleep(for: .milliseconds(20))
            let again = Engine.ok(try await writer.request("TEMPLATE.PUBLISH", ["id": .string(templateID)]))
            let exported = Engine.ok(try await writer.request("ACCOUNT.EXPORT"))["listings"]?.arrayValue ?? []
            #expect(exported.map { $0.objectValue?["listing_id"] } == [.string(listingID)])
            #expect(again["listing_id"] == .string(listingID) && again["name"] == "Rower II" && again["published_at"] == published["published_at"])
            #expect(again["updated_at"] != published["updated_at"] && again["description"] == "")

            // The installer logged before installing: the copy counts those logs at once.
            let app = try await PushRecorder.authenticated(port: port, token: installer.token)
            try await Templates.startTrial(app)
            _ = try await Templates.activity(app, activityName.uppercased())
            Engine.ok(try await app.request("LOG", Engine.log(activityName.uppercased(), amount: 25)))
            let installed = Engine.ok(try await app.request("TEMPLATE.INSTALL", ["listing_id": .string(listingID)]))
            #expect(installed["name"] == "Rower II")
            #expect(Templates.achievements(installed).allSatisfy { $0["unlocked_at"] != nil }, "\(installed)")
            let conflict = try await app.request("TEMPLATE.INSTALL", ["listing_id": .string(listingID)])
            #expect(conflict.errorCode == "conflict")
            // Deleted and installed again: still one install.
            Engine.ok(try await app.request("TEMPLATE.DELETE", ["id": installed["id"] ?? .null]))
            Engine.ok(try await app.request("TEMPLATE.INSTALL", ["listing_id": .string(listingID)]))
            let browsed = try await Self.market(app, ["activity": .string(activityName.lowercased())])
            #expect(browsed.listings.map { $0["listing_id"] } == [.string(listingID)] && browsed.listings.first?["installs"] == 1)

            // A free user browses but cannot install.
            let visitor = try await PushRecorder.authenticated(port: port, token: free.token)
            _ = try await Templates.activity(visitor, activityName)
            #expect(try await Self.market(visitor, ["activity": .string(activityName), "sort": "new"]).listings.count == 1)
            #expect(try await visitor.request("TEMPLATE.INSTALL", ["listing_id": .string(listingID)]).errorCode == "premium_required")

            // Only the author unpublishes; the installed copy stays.
            #expect(try await app.request("TEMPLATE.UNPUBLISH", ["listing_id": .string(listingID)]).errorField == "listing_id")
            Engine.ok(try await writer.request("TEMPLATE.UNPUBLISH", ["listing_id": .string(listingID)]))
            #expect(try await Self.market(app, ["activity": .string(activityName)]).listings.isEmpty)
            #expect(Templates.list(try await app.request("TEMPLATES")).count == 1)
            #expect(try await app.request("TEMPLATE.INSTALL", ["listing_id": .string(listingID)]).errorField == "listing_id")
        }
    }

    @Test func pagesFiltersOperatorsAndAuthorsDeletion() async throws {
        let author = try await LaurelTestDatabase.createUser("author-pages")
        let activityName = "Curling \(UUID().uuidString.prefix(6))"
        try await TestServer.run { port in
            let writer = try await PushRecorder.authenticated(port: port, token: author.token)
            try await Templates.startTrial(writer)
            _ = try await Templates.activity(writer, activityName)
            var listings: [String] = []
            for type in ["volume", "daily", "weekly"] {
                let (_, id) = try await Templates.created(writer, Templates.create(activityName, type))
                let listing = Engine.ok(try await writer.request("TEMPLATE.PUBLISH", ["id": .string(id)]))
                listings.append(try #require(listing["listing_id"]?.stringValue))
                try await Task.sleep(for: .milliseconds(5))
            }
            // Newest first, a page of one at a time: every listing exactly once.
            var seen: [String] = []
            var after: String?
            repeat {
                var argument: JSONObject = ["activity": .string(activityName), "sort": "new", "limit": 1]
                if let after { argument["after"] = .string(after) }
                let page = try await Self.market(writer, argument)
                seen += page.listings.compactMap { $0["listing_id"]?.stringValue }
                after = page.next
            } while after != nil
            #expect(seen == listings.reversed())
            #expect(try await Self.market(writer, ["activity": .string(activityName), "type": "daily"]).listings.count == 1)
            let tooLong = try await writer.request("TEMPLATE.PUBLISH", ["id": "x", "description": .string(String(repeating: "a", count: 281))])
            #expect(tooLong.errorField == "description")
            #expect(try await writer.request("TEMPLATE.PUBLISH", ["id": "00000000-0000-4000-8000-000000000000"]).errorField == "id")
        }
        let listingsOf = { () async throws -> String? in
            try await LaurelTestDatabase.scalar("SELECT count(*) FROM laurel.listings l JOIN laurel.users u ON u.id = l.author_id WHERE u.name = $1::text", [.text(author.name)])
        }
        let first = try await LaurelTestDatabase.scalar(
            "SELECT l.id::text FROM laurel.listings l JOIN laurel.users u ON u.id = l.author_id WHERE u.name = $1::text LIMIT 1", [.text(author.name)])
        #expect(try await LaurelTestDatabase.scalar("SELECT laurel.unpublish_listing($1::text)", [.text(first ?? "")]) == "t")
        #expect(try await listingsOf() == "2")
        _ = try await LaurelTestDatabase.scalar("SELECT laurel.delete_user($1::text)", [.text(author.name)])
        #expect(try await listingsOf() == "0")
    }
}
