import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelServer
import LaurelTestSupport
import Testing

/// Template progress is evaluated incrementally like everything else; recomputing it from the stored logs and
/// settings with the pure core must agree, through backfills, deletions, a rest day, templates made after the
/// logs and a speed window changed on the way.
@Suite struct TemplateRecomputationTests {
    @Test(arguments: [("America/St_Johns", UInt64(5)), ("Asia/Kathmandu", UInt64(17))])
    func templateProgressMatchesRecomputation(zoneName: String, seed: UInt64) async throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let catalog = try ShippedCatalogs.load("standfit")
        let user = try await LaurelTestDatabase.createUser("tpl-recompute", timeZone: zoneName)
        try await TestServer.run { port in
            let app = try await PushRecorder.authenticated(port: port, token: user.token)
            try await Templates.startTrial(app)
            _ = try await Templates.activity(app, "Rowing")
            for (activity, type, tiers) in Self.templates {
                _ = try await Templates.created(app, Templates.create(activity, type, tiers: tiers))
            }
            var random = SeededRandom(seed: seed)
            var live: [String] = []
            var speedID: String?
            let now = Date()
            for step in 0..<48 {
                if step % 6 == 5, let victim = live.randomElement(using: &random) {
                    Engine.ok(try await app.request("LOG.DELETE", ["id": .string(victim)]))
                    live.removeAll { $0 == victim }
                } else {
                    // Bunched into a few days, so days, weeks, streaks and speed windows all have something to count.
                    let seconds = step % 8 == 0 ? 30 : Int.random(in: 60...(9 * 86_400), using: &random) / 7 * 3
                    let activity = ["Rowing", "squats"].randomElement(using: &random)!
                    let id = "tr\(seed)-\(step)"
                    Engine.ok(try await app.request("LOG", Engine.log(
                        activity, amount: Int.random(in: 1...30, using: &random), at: now.addingTimeInterval(-Double(seconds)), id: id)))
                    live.append(id)
                }
                switch step {
                case 12:
                    let weekday = LocalDay(of: now, in: zone).weekday
                    Engine.ok(try await app.request("SETTINGS", ["rest_day": .string(weekday.name)]))
                case 20:
                    // A template made when the logs are already there.
                    speedID = try await Templates.created(app, Templates.create("Rowing", "speed", tiers: .array([
                        Templates.tier("bronze", 20, window: 3), Templates.tier("silver", 60, window: 45),
                    ]))).id
                case 32:
                    let id = try #require(speedID)
                    Engine.ok(try await app.request("TEMPLATE.UPDATE", ["id": .string(id), "tiers": .array([
                        Templates.tier("bronze", 20, window: 7), Templates.tier("silver", 60, window: 45),
                    ])]))
                default:
                    break
                }
                if step % 8 == 7 {
                    try await Self.expectAgreement(app, user, zone: zone, catalog: catalog, "\(zoneName) after step \(step)")
                }
            }
            try await LaurelTestDatabase.scalar(
                "DELETE FROM laurel.progress_snapshots WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
            try await Self.expectAgreement(app, user, zone: zone, catalog: catalog, "\(zoneName) on a rebuilt state")
        }
    }

    static let templates: [(String, String, JSONValue)] = [
        ("Rowing", "volume", Templates.tiers([40, 120, 300])),
        ("Rowing", "daily", Templates.tiers([25, 60, 120])),
        ("Rowing", "weekly", Templates.tiers([60, 150, 400])),
        ("Rowing", "streak", Templates.tiers([2, 3, 5])),
        ("squats", "speed", .array([Templates.tier("bronze", 30, window: 10), Templates.tier("silver", 60, window: 120)])),
        ("squats", "streak", Templates.tiers([2, 4, 6])),
    ]

    /// Every template achievement's progress as recomputed from the stored rows, and unlocked wherever it is met.
    static func expectAgreement(
        _ app: PushRecorder, _ user: TestUser, zone: TimeZone, catalog: Catalog, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let stored = try await RecomputedProgress.read(user, zone: zone, catalog: catalog)
        let templates = Templates.list(try await app.request("TEMPLATES"))
        var definitions: [AchievementDefinition] = []
        for object in templates {
            let template = try #require(Self.template(object), "\(label): \(object)", sourceLocation: sourceLocation)
            definitions += template.achievements(activityName: "")
        }
        let recomputation = ProgressRecomputation(
            facts: ProgressFacts(logs: stored.logs), settings: stored.settings, today: stored.today,
            speedWindows: SpeedWindow.required(by: definitions))
        let shown = Engine.byID(Engine.ok(try await app.request("ACHIEVEMENTS", ["source": "template"]), sourceLocation: sourceLocation))
        #expect(Set(shown.keys) == Set(definitions.map(\.id)), "\(label)", sourceLocation: sourceLocation)
        for definition in definitions {
            let measure = recomputation.measures.measure(of: definition.rule, level: stored.highestLevel)
            let achievement = shown[definition.id]
            #expect(achievement?["progress"]?.intValue == definition.displayedProgress(for: measure),
                    "\(label): progress of \(definition.id) (\(definition.rule))", sourceLocation: sourceLocation)
            if definition.isMet(by: measure) {
                #expect(achievement?["unlocked_at"] != nil && stored.unlocked.contains(definition.id),
                        "\(label): \(definition.id) is met but not unlocked", sourceLocation: sourceLocation)
            }
        }
    }

    /// A TEMPLATE object read back into the core's template.
    static func template(_ object: JSONObject) -> AchievementTemplate? {
        guard let id = object["id"]?.stringValue, let activity = object["activity"]?.stringValue,
              let type = object["type"]?.stringValue.flatMap(TemplateType.init(rawValue:)),
              let tiers = object["tiers"]?.arrayValue?.compactMap({ $0.objectValue.flatMap(TemplateTier.init(json:)) })
        else { return nil }
        let epoch = Date(timeIntervalSince1970: 0)
        return AchievementTemplate(id: id, name: object["name"]?.stringValue ?? "", activityID: activity, type: type, tiers: tiers,
                                   createdAt: epoch, updatedAt: epoch)
    }
}
