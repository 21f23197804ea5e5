import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// ACHIEVEMENTS and ACHIEVEMENT: the catalog's achievements with the user's progress, from the session's state
/// when it holds a current one (no database round trip).
enum AchievementRequests {
    static func list(_ filters: AchievementsRequest, in context: RequestContext) async throws -> RequestOutcome {
        let now = Date()
        let progress = try await context.sessionProgress(now: now)
        var activityID: String?
        if let activity = filters.activity {
            guard let found = context.catalog.builtinActivity(named: activity) ?? progress.customActivity(activity) else {
                throw ProtocolError.notFound(field: "activity")
            }
            activityID = found.id
        }
        let views = views(progress.snapshot(now: now)).filter { view in
            (filters.includeHidden || !view.isHidden)
                && filters.category.map { $0 == view.definition.category } ?? true
                && activityID.map { $0 == view.activity } ?? true
                && filters.status.map { $0.rawValue == view.status } ?? true
                && filters.source.map { $0.rawValue == view.source } ?? true
        }
        var byTier = JSONObject()
        for tier in AchievementTier.allCases {
            byTier[tier.rawValue] = .int(views.filter { $0.isUnlocked && $0.definition.tier == tier }.count)
        }
        return RequestOutcome([
            "summary": ["unlocked": .int(views.filter(\.isUnlocked).count), "total": .int(views.count), "by_tier": .object(byTier)],
            "achievements": .array(ordered(views).map { .object($0.json) }),
        ])
    }

    static func one(_ request: IDRequest, in context: RequestContext) async throws -> RequestOutcome {
        let id = request.id
        let now = Date()
        let snapshot = try await context.sessionProgress(now: now).snapshot(now: now)
        guard let view = views(snapshot).first(where: { $0.definition.id == id }) else {
            throw ProtocolError.notFound(field: "id")
        }
        return RequestOutcome(.object(view.json))
    }

    static func views(_ snapshot: ProgressSnapshot) -> [AchievementView] {
        snapshot.achievements.entries.map { entry in
            AchievementView(
                entry: entry, measures: snapshot.measures, level: snapshot.highestLevel, unlockedAt: snapshot.unlocks[entry.definition.id])
        }
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

extension AchievementView {
    /// How far along, 0 to 1.
    var completion: Double { Double(progress) / Double(max(1, definition.target)) }
}
