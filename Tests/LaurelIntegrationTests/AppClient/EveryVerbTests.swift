import Foundation
import LaurelClient
import LaurelJSON
import LaurelPostgres
import Synchronization
import Testing

@testable import LaurelServer

/// Every verb through the client's typed requests against a real server, each answer decoded into its model and
/// read, so a model that does not match what the server answers fails here; and the client has a request type
/// for every verb of the server's table, so a verb added to the server without one fails too.
@Suite struct EveryVerbTests {
    @Test func theClientHasARequestForEveryVerbOfTheServer() {
        let client = Set(Verb.all.map { $0.verb })
        #expect(client.union(["AUTH"]) == Set(VerbTable.byVerb.keys))
        #expect(!client.contains("AUTH"), "the client authenticates by itself")
        #expect(client.allSatisfy { $0 == $0.uppercased() })
    }

    /// A client that notes the request types it sent.
    final class Sender: Sendable {
        let client: LaurelClient
        let sent = Mutex<Set<ObjectIdentifier>>([])

        init(_ client: LaurelClient) {
            self.client = client
        }

        func callAsFunction<Request: LaurelRequest>(_ request: Request) async throws -> Request.Answer {
            sent.withLock { _ = $0.insert(ObjectIdentifier(Request.self)) }
            return try await client.send(request)
        }
    }

    @Test func everyVerbAnswersWhatItsModelReads() async throws {
        let owner = try await LaurelTestDatabase.createUser("every-verb")
        let installer = try await LaurelTestDatabase.createUser("every-verb-installer")
        let rowing = "Rowing \(UUID().uuidString.prefix(6))"
        try await TestServer.run(catalog: "mindful") { port in
            let app = try AppClient.make(port: port, token: owner.token)
            await app.start()
            let send = Sender(app)

            // The connection and the user's figures.
            let ping = try await send(Verb.Ping())
            #expect(abs(ping.time.timeIntervalSinceNow) < 60)
            let profile = try await send(Verb.Profile())
            #expect(profile.user == owner.name && profile.level == 1 && profile.totals.logs == 0)
            let settings = try await send(Verb.Settings(weeklyGoal: 4, leaderboards: false))
            #expect(settings.weeklyGoal == 4 && settings.timeZone == "UTC" && settings.restDay == nil && !settings.leaderboards)

            // Activities: the catalog's and one of the user's own, deleted and restored.
            let builtins = try await send(Verb.Activities())
            let meditation = try #require(builtins.first { $0.id == "meditation" })
            #expect(meditation.unit == .minutes && !meditation.custom && !meditation.deleted)
            let created = try await send(Verb.CreateActivity(name: rowing, unit: .minutes, icon: "oar"))
            #expect(created.name == rowing && created.unit == .minutes && created.custom && !created.deleted && created.icon == "oar")
            let deleted = try await send(Verb.DeleteActivity(id: created.id))
            #expect(deleted.id == created.id && deleted.deleted)
            #expect(try await send(Verb.Activities(includeDeleted: true)).contains { $0.id == created.id && $0.deleted })
            #expect(try await send(Verb.Activities()).allSatisfy { $0.id != created.id })
            let restored = try await send(Verb.RestoreActivity(id: rowing))
            #expect(restored.id == created.id && !restored.deleted)

            // Facts.
            let logged = try await send(Verb.Log(activity: rowing, amount: 20, id: "every-verb-1", note: "first"))
            #expect(logged.log.id == "every-verb-1" && logged.log.activity == created.id && logged.log.amount == 20 && logged.log.note == "first")
            #expect(!logged.duplicate && logged.xp > 0 && logged.streak.current == 1)
            let mistake = try await send(Verb.Log(activity: "meditation", amount: 3))
            let removed = try await send(Verb.DeleteLog(id: mistake.log.id))
            #expect(removed.log.id == mistake.log.id && removed.log.activity == "meditation" && removed.streak.current == 1)
            let page = try await send(Verb.Logs(activity: rowing, limit: 10))
            #expect(page.logs.map(\.id) == ["every-verb-1"] && page.next == nil)
            let lesson = try await send(Verb.LessonDone(lesson: "basics-1", id: "every-verb-lesson"))
            #expect(lesson.log.lesson == "basics-1" && lesson.log.id == "every-verb-lesson" && lesson.log.activity == nil)
            let event = try await send(Verb.Event(name: "share"))
            #expect(event.log.event == "share" && event.log.day == logged.log.day)
            let reminder = try await send(Verb.Reminder(id: "every-verb-reminder"))
            #expect(reminder.reminder.id == "every-verb-reminder" && ["answered", "pending", "missed"].contains(reminder.reminder.state))
            #expect(reminder.reminder.windowEndsAt > reminder.reminder.at && !reminder.duplicate)

            // Progress.
            let achievements = try await send(Verb.Achievements())
            #expect(achievements.summary.total >= achievements.achievements.count && !achievements.achievements.isEmpty)
            let locked = try #require(achievements.achievements.first { $0.unlockedAt == nil })
            let explained = try await send(Verb.AchievementByID(id: locked.id, explain: true))
            #expect(explained.id == locked.id && explained.source == "builtin")
            #expect((explained.explain?.remaining ?? 0) > 0 && explained.explain?.text.isEmpty == false)
            let challenges = try await send(Verb.Challenges())
            #expect(challenges.day == logged.log.day && challenges.week.contains("-W"))

            // Subscription: free, then the trial.
            let free = try await send(Verb.Subscription())
            #expect(free.tier == "free" && free.status == "free" && free.trialAvailable && !free.entitlements.templates)
            #expect(free.trialEndsAt == nil && free.expiresAt == nil)
            let trial = try await send(Verb.StartTrial())
            #expect(trial.tier == "premium" && trial.status == "trial" && !trial.trialAvailable && trial.entitlements.templates)
            #expect((trial.trialEndsAt ?? .distantPast) > Date() && (trial.entitlements.templateLimit ?? 0) > 0)

            // Templates: a preset, one of an activity, one from a preset, a combo, one for each activity.
            let presets = try await send(Verb.Presets())
            let starter = try #require(presets.first { $0.id == "starter_volume" })
            #expect(starter.type == .volume && starter.tiers.map(\.target) == [25, 50, 100, 250] && !starter.description.isEmpty)
            let tiers = [TemplateTier(tier: "bronze", target: 10, label: "Ten rows"), TemplateTier(tier: "silver", target: 1000)]
            let rower = try await send(Verb.CreateTemplate(activity: rowing, type: .volume, tiers: tiers, name: "Rower"))
            #expect(rower.name == "Rower" && rower.activity == created.id && rower.combo == nil && rower.type == .volume && rower.active)
            #expect(rower.tiers == tiers && rower.inactiveReason == nil && rower.createdAt == rower.updatedAt)
            #expect(rower.achievements.count == 2 && rower.achievements.allSatisfy { $0.templateID == rower.id && $0.source == "template" })
            #expect(rower.achievements.first?.unlockedAt != nil, "20 rowed reach the bronze tier at once")
            let habit = try await send(Verb.CreateTemplate(activity: "meditation", preset: "habit_builder"))
            #expect(habit.type == .streak && habit.activity == "meditation")
            let both = try await send(Verb.CreateTemplate(combo: [ComboPart(activity: rowing, amount: 10), ComboPart(activity: "meditation", amount: 5)], name: "Both"))
            #expect(both.type == .combo && both.activity == nil && both.combo == [ComboPart(activity: created.id, amount: 10), ComboPart(activity: "meditation", amount: 5)])
            await #expect(throws: EncodingError.self) { try await app.send(Verb.CreateTemplate(activity: "*", type: .daily)) }
            let daily = try await send(Verb.CreateTemplateForEachActivity(type: .daily))
            #expect(Set(daily.compactMap(\.activity)) == [created.id, "meditation"] && daily.allSatisfy { $0.type == .daily })
            #expect(try await send(Verb.Templates()).count == 3 + daily.count)
            // (A combo is listed under its first activity too: what the filter does with combos is not checked here.)
            let rowingTemplates = Set(try await send(Verb.Templates(activity: rowing)).map(\.id))
            let dailyRowing = try #require(daily.first { $0.activity == created.id })
            #expect(rowingTemplates.isSuperset(of: [rower.id, dailyRowing.id]) && !rowingTemplates.contains(habit.id))
            let renamed = try await send(Verb.UpdateTemplate(id: rower.id, name: "Rower II", active: false))
            #expect(renamed.id == rower.id && renamed.name == "Rower II" && !renamed.active && renamed.updatedAt >= rower.updatedAt)

            // Moving templates: exported, deleted, imported again (with an entry that cannot be placed).
            let document = try await send(Verb.ExportTemplates(ids: [rower.id, both.id]))
            #expect(document.laurelTemplates == 1 && document.templates.count == 2)
            let portableRower = try #require(document.templates.first { $0.name == "Rower II" })
            #expect(portableRower.activity == rowing && portableRower.type == .volume && portableRower.tiers == tiers && portableRower.active == false)
            #expect(document.templates.first { $0.name == "Both" }?.combo?.map(\.activity) == [rowing, "Meditation"], "activities by name")
            let gone = try await send(Verb.DeleteTemplate(id: rower.id))
            #expect(gone.id == rower.id && gone.removedAchievements == 2)
            let ghost = PortableTemplate(name: "Ghost", activity: "no such activity", type: .volume, tiers: tiers)
            let imported = try await send(Verb.ImportTemplates(document: TemplateDocument(templates: [portableRower, ghost])))
            #expect(imported.created.map(\.name) == ["Rower II"] && imported.created.first?.activity == created.id)
            #expect(imported.skipped.map(\.name) == ["Ghost"] && imported.skipped.first?.reason.isEmpty == false)
            let copy = try #require(imported.created.first)

            // The marketplace: published, browsed, installed by another premium user, unpublished.
            let listing = try await send(Verb.PublishTemplate(id: copy.id, description: "Ten rows, then a thousand"))
            #expect(listing.name == "Rower II" && listing.type == .volume && listing.activityName == rowing && listing.combo == nil)
            #expect(listing.author == owner.name && listing.installs == 0 && listing.description == "Ten rows, then a thousand")
            #expect(listing.tiers == tiers && listing.publishedAt == listing.updatedAt)
            let comboListing = try await send(Verb.PublishTemplate(id: both.id))
            #expect(comboListing.type == .combo && comboListing.activityName == nil && comboListing.combo?.map(\.activity) == [rowing, "Meditation"])
            _ = try await send(Verb.UnpublishTemplate(listingID: comboListing.listingID))
            let market = try await send(Verb.Market(activity: rowing.lowercased(), sort: .new, limit: 5))
            #expect(market.listings.map(\.listingID) == [listing.listingID] && market.next == nil)

            try await LaurelTestDatabase.scalar("SELECT laurel.grant_premium($1::text, '30 days')", [.text(installer.name)])
            let other = try AppClient.make(port: port, token: installer.token)
            await other.start()
            let otherSend = Sender(other)
            let premium = try await otherSend(Verb.Subscription())
            #expect(premium.tier == "premium" && premium.status == "active" && premium.expiresAt != nil && premium.trialAvailable)
            let theirs = try await otherSend(Verb.CreateActivity(name: rowing.uppercased()))
            let installed = try await otherSend(Verb.InstallTemplate(listingID: listing.listingID))
            #expect(installed.name == "Rower II" && installed.activity == theirs.id && installed.tiers == tiers && installed.id != copy.id)
            #expect(try await send(Verb.Market(activity: rowing)).listings.first?.installs == 1)
            _ = try await send(Verb.UnpublishTemplate(listingID: listing.listingID))
            #expect(try await send(Verb.Market(activity: rowing)).listings.isEmpty)

            // Friends: the installer accepts the owner's code; each sees the other; the owner ends it.
            let invite = try await send(Verb.CreateInvite())
            #expect(invite.code.count == 8 && invite.expiresAt > Date())
            let accepted = try await otherSend(Verb.AcceptInvite(code: invite.code))
            #expect(accepted.friend.user == owner.name && accepted.friend.level >= 1)
            let friends = try await send(Verb.Friends())
            #expect(friends.friends.map(\.user) == [installer.name])
            let board = try await send(Verb.Leaderboard(board: "logs", period: "all", scope: "friends"))
            #expect(board.me?.user == owner.name && board.entries.first?.rank == 1 && board.total >= 1)
            _ = try await send(Verb.RemoveFriend(userID: friends.friends[0].userID))
            #expect(try await otherSend(Verb.Friends()).friends.isEmpty)

            // Stored pushes, the account as a whole.
            let notifications = try await send(Verb.Notifications(after: 0))
            #expect(notifications.notifications.last?.seq == notifications.lastSeq)
            #expect(notifications.notifications.contains { $0.kind == "SUBSCRIPTION" && $0.data.value["status"] == "trial" })
            #expect(notifications.notifications.contains { $0.kind == "UNLOCK" && $0.data.value["template_id"] == .string(rower.id) })
            let export = try await send(Verb.ExportAccount())
            #expect(export.value["user"]?["name"]?.stringValue == owner.name)
            #expect(export.value["logs"]?.arrayValue?.contains { $0["id"] == "every-verb-1" } == true)
            #expect(try JSONParser.parse(export.text) == export.value)

            // QUIT closes the connection; the client connects again by itself.
            _ = try await send(Verb.Quit())
            try await AppClient.eventually("connected again after QUIT") {
                let (authentications, status) = (await app.authentications, await app.status)
                return authentications == 2 && status == .connected
            }
            #expect(try await app.send(Verb.Profile()).user == owner.name)

            // ACCOUNT.DELETE: the user is gone, and so is the token.
            _ = try await otherSend(Verb.DeleteAccount(confirm: installer.name))
            try await AppClient.eventually("the deleted user's token refused") { await other.status == .authenticationFailed }

            let sent = send.sent.withLock { $0 }.union(otherSend.sent.withLock { $0 })
            let missing = Verb.all.filter { !sent.contains(ObjectIdentifier($0)) }.map { "\($0)" }
            #expect(missing.isEmpty, "request types this test did not send: \(missing)")
            await app.stop()
            await other.stop()
        }
    }
}
