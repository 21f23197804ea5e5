import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// LOG, LOG.DELETE and LOGS.
enum LogRequests {
    static func log(_ log: LogRequest, in context: RequestContext) async throws -> RequestOutcome {
        try await FactRequests.record(
            ReportedFact(.log(activity: log.activity, amount: log.amount, note: log.note), id: log.id, at: log.at), in: context)
    }

    /// A deleted log stops counting; achievements already unlocked stay.
    static func delete(_ request: IDRequest, in context: RequestContext) async throws -> RequestOutcome {
        let performed = try await context.write(.deleteLog(id: request.id), now: context.now)
        guard case .logDeleted(let log) = performed.decision.outcome else { throw ProtocolError.internal() }
        let figures = performed.decision.figures
        var json = JSONWriter()
        json.beginObject()
        json.key("log")
        LogRendering.write(id: log.id, activity: log.activityID, amount: log.amount, at: log.at, day: log.day, note: log.note, into: &json)
        json.field("xp", figures.xp)
        json.field("level", figures.level)
        json.key("streak")
        StreakRendering.write(figures.shownStreak, into: &json)
        json.endObject()
        return RequestOutcome(json: json, pushes: performed.pushes)
    }

    static func list(_ query: LogsRequest, in context: RequestContext) async throws -> RequestOutcome {
        let progress = try await context.sessionProgress(now: context.now).progress
        var activityID: String?
        if let activity = query.activity {
            // Logs of a deleted custom activity stay readable.
            guard let found = context.catalog.builtinActivity(named: activity) ?? progress.customActivity(activity) else {
                throw ProtocolError.notFound(field: "activity")
            }
            activityID = found.id
        }
        let (limit, before) = (query.limit, query.before)
        let selection = LogQuery(activityID: activityID, fromDay: query.from, toDay: query.to, beforeLogID: before, limit: limit + 1)
        let page = try await context.read { reader -> [ListedLog] in
            if let before, try reader.log(id: before) == nil { throw ProtocolError.notFound(field: "before") }
            return try reader.logs(selection)
        }
        var json = JSONWriter()
        json.beginObject()
        json.key("logs")
        json.beginArray()
        for log in page.prefix(limit) {
            LogRendering.write(id: log.id, activity: log.activityID, amount: log.amount, at: log.at, day: log.day, note: log.note, into: &json)
        }
        json.endArray()
        if page.count > limit, let last = page.prefix(limit).last { json.field("next", last.id) }
        json.endObject()
        return RequestOutcome(json: json)
    }
}

/// LOG, LESSON.DONE and EVENT: a fact the client reports under its own idempotency key, decided by the rules
/// (a retry gets its first answer back, before any refusal) and committed with its answer.
enum FactRequests {
    static func record(_ fact: ReportedFact, in context: RequestContext) async throws -> RequestOutcome {
        let performed = try await context.write(.report(fact), now: context.now) { FactAnswer.bytes(for: $0, pushes: $1) }
        guard let answer = performed.answer, !answer.isEmpty else { throw ProtocolError.internal("the first answer to this id was not kept") }
        return RequestOutcome(jsonBytes: answer, pushes: performed.pushes)
    }
}
