import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// ACTIVITIES, ACTIVITY.CREATE, ACTIVITY.DELETE and ACTIVITY.RESTORE.
enum ActivityRequests {
    static func list(_ request: ActivitiesRequest, in context: RequestContext) async throws -> RequestOutcome {
        let progress = try await context.sessionProgress(now: context.now).progress
        let custom = progress.customActivities.filter { request.includeDeleted || !$0.deleted }
        return RequestOutcome(.array((context.catalog.activities + custom).map(ActivityRendering.json)))
    }

    static func create(_ request: ActivityCreateRequest, in context: RequestContext) async throws -> RequestOutcome {
        try await write(.createActivity(ActivityDraft(name: request.name, unit: request.unit, icon: request.icon)), in: context)
    }

    static func delete(_ request: ActivityIDRequest, in context: RequestContext) async throws -> RequestOutcome {
        try await write(.setActivityDeleted(request.id, deleted: true), in: context)
    }

    static func restore(_ request: ActivityIDRequest, in context: RequestContext) async throws -> RequestOutcome {
        try await write(.setActivityDeleted(request.id, deleted: false), in: context)
    }

    private static func write(_ change: UserChange, in context: RequestContext) async throws -> RequestOutcome {
        let performed = try await context.write(change, now: context.now)
        guard case .activity(let activity) = performed.decision.outcome else { throw ProtocolError.internal() }
        return RequestOutcome(ActivityRendering.json(activity), pushes: performed.pushes)
    }
}
