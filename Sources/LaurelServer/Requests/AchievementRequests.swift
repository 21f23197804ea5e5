import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// ACHIEVEMENTS and ACHIEVEMENT: the catalog's and the user's templates' achievements with the user's progress, from
/// the session's progress (no database round trip when it is current).
enum AchievementRequests {
    static func list(_ filters: AchievementsRequest, in context: RequestContext) async throws -> RequestOutcome {
        let now = context.now
        let progress = try await context.sessionProgress(now: now).progress
        var activityID: String?
        if let activity = filters.activity {
            guard let found = context.catalog.builtinActivity(named: activity) ?? progress.customActivity(activity) else {
                throw ProtocolError.notFound(field: "activity")
            }
            activityID = found.id
        }
        let views = AchievementView.all(of: progress, at: now).filter { view in
            (filters.includeHidden || !view.isHidden)
                && filters.category.map { $0 == view.definition.category } ?? true
                && activityID.map { $0 == view.activity } ?? true
                && filters.status.map { $0.rawValue == view.status } ?? true
                && filters.source.map { $0.rawValue == view.source } ?? true
        }
        var json = JSONWriter(capacity: 256 * max(1, views.count))
        json.beginObject()
        json.key("summary")
        json.beginObject()
        json.field("unlocked", views.count(where: \.isUnlocked))
        json.field("total", views.count)
        json.key("by_tier")
        json.beginObject()
        for tier in AchievementTier.allCases {
            json.key(runtime: tier.rawValue)
            json.int(views.count { $0.isUnlocked && $0.definition.tier == tier })
        }
        json.endObject()
        json.endObject()
        json.key("achievements")
        json.beginArray()
        for view in ordered(views) { view.write(into: &json, rarity: context.services.rarity) }
        json.endArray()
        json.endObject()
        return RequestOutcome(json: json)
    }

    static func one(_ request: AchievementRequest, in context: RequestContext) async throws -> RequestOutcome {
        let now = context.now
        let progress = try await context.sessionProgress(now: now).progress
        guard let view = AchievementView.one(request.id, of: progress, at: now) else { throw ProtocolError.notFound(field: "id") }
        let explanation = request.explain
            ? AchievementExplainer(progress: progress, catalog: context.catalog, now: now).explain(view.entry) : nil
        var json = JSONWriter()
        view.write(into: &json, rarity: context.services.rarity, explanation: explanation)
        return RequestOutcome(json: json)
    }

    /// Unlocked (newest first), then in progress (closest to done first), then locked (catalog order).
    static func ordered(_ views: [AchievementView]) -> [AchievementView] {
        let unlocked = views.filter(\.isUnlocked).sorted { ($0.unlockedAt ?? .distantPast) > ($1.unlockedAt ?? .distantPast) }
        let inProgress = views.enumerated().filter { !$0.element.isUnlocked && $0.element.progress > 0 }
            .sorted { left, right in
                let (a, b) = (left.element.completion, right.element.completion)
                return a != b ? a > b : left.offset < right.offset
            }
            .map(\.element)
        let locked = views.filter { !$0.isUnlocked && $0.progress == 0 }
        return unlocked + inProgress + locked
    }
}
