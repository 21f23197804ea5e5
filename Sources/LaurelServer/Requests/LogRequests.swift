import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// LOG, LOG.DELETE and LOGS.
enum LogRequests {
    /// What a LOG asks for, after parsing.
    struct Draft: Sendable {
        var activity: String
        var amount: Int
        var at: Date?
        var id: String?
        var note: String?
    }

    static func log(_ draft: Draft, in context: RequestContext) async throws -> RequestOutcome {
        let now = Date()
        let admission = await FactAdmission(at: draft.at, now: now, in: context)
        let catalog = context.catalog
        let engine = context.engine
        let (response, pushes) = try await admission.run { try await context.write { records -> ((JSONValue, [StoredPush]), storedNew: Bool) in
            if let id = draft.id, let existing = try records.log(id: id) {
                guard try sameContent(existing, draft, catalog: catalog, records: records) else {
                    throw ProtocolError.conflict("log id \"\(id)\" was used for a different log")
                }
                return ((try FactAnswer.replay(existing.response), []), false)
            }
            try admission.admitNewFact()
            guard let activity = try ActivityLookup.live(draft.activity, catalog: catalog, in: records) else {
                throw ProtocolError.notFound(field: "activity")
            }
            let at = draft.at ?? now
            let local = LocalDateTime(of: at, in: try records.timeZone())
            let log = StoredLog(
                id: draft.id ?? UUID().uuidString.lowercased(), activityID: activity.id, amount: draft.amount, at: at,
                day: local.day.description, note: draft.note, requestedAt: draft.at, localHour: local.hour)
            try records.insertLog(log)
            let fact = LoggedFact(id: log.id, activity: activity.id, amount: log.amount, at: at, day: local.day, localHour: local.hour)
            let evaluation = try engine.evaluate(.newLog(fact), in: records, now: now)
            let answer = FactAnswer.json(fact: LogRendering.json(log), evaluation: evaluation)
            try records.setLogResponse(id: log.id, response: answer)
            return ((answer, evaluation.pushes), true)
        } }
        return RequestOutcome(response, pushes: pushes)
    }

    static func delete(id: String, in context: RequestContext) async throws -> RequestOutcome {
        let engine = context.engine
        let (response, pushes) = try await context.write { records -> (JSONValue, [StoredPush]) in
            guard let log = try records.log(id: id), !log.deleted else { throw ProtocolError.notFound(field: "id") }
            try records.markLogDeleted(id: id)
            let evaluation = try engine.evaluate(.factsRemoved, in: records, now: Date())
            let answer: JSONValue = [
                "log": LogRendering.json(log), "xp": .int(evaluation.xp), "level": .int(evaluation.level),
                "streak": StreakRendering.json(evaluation.streak),
            ]
            return (answer, evaluation.pushes)
        }
        return RequestOutcome(response, pushes: pushes)
    }

    static func list(
        activity: String?, from: String?, to: String?, limit: Int, before: String?, in context: RequestContext
    ) async throws -> RequestOutcome {
        let catalog = context.catalog
        let response = try await context.read { records -> JSONValue in
            var activityID: String?
            if let activity {
                // Logs of a deleted custom activity stay readable.
                guard let found = try catalog.builtinActivity(named: activity) ?? ActivityLookup.custom(activity, in: records) else {
                    throw ProtocolError.notFound(field: "activity")
                }
                activityID = found.id
            }
            if let before, try records.log(id: before) == nil { throw ProtocolError.notFound(field: "before") }
            let page = try records.logs(LogQuery(activityID: activityID, fromDay: from, toDay: to, beforeLogID: before, limit: limit + 1))
            var object: JSONObject = ["logs": .array(page.prefix(limit).map(LogRendering.json))]
            if page.count > limit, let last = page.prefix(limit).last { object["next"] = .string(last.id) }
            return .object(object)
        }
        return RequestOutcome(response)
    }

    static func error(for problem: LogTimePolicy.Problem) -> ProtocolError {
        switch problem {
        case .inFuture: .invalidArgument(field: "at", message: "at is more than 5 minutes in the future")
        case .beforeBackfillWindow: .invalidArgument(field: "at", message: "at is older than the backfill window")
        }
    }

    /// A retry is the same LOG when it names the same activity, amount, `at` (as sent) and note.
    private static func sameContent(_ stored: StoredLog, _ draft: Draft, catalog: Catalog, records: any UserRecords) throws -> Bool {
        guard stored.amount == draft.amount, stored.note == draft.note else { return false }
        switch (stored.requestedAt, draft.at) {
        case (nil, nil): break
        case (let a?, let b?) where abs(a.timeIntervalSince(b)) < 0.000_001: break
        default: return false
        }
        let named = try catalog.builtinActivity(named: draft.activity) ?? ActivityLookup.custom(draft.activity, in: records)
        return named?.id == stored.activityID
    }
}

enum LogRendering {
    static func json(_ log: StoredLog) -> JSONValue {
        var object: JSONObject = [
            "id": .string(log.id), "activity": .string(log.activityID), "amount": .int(log.amount),
            "at": .string(Timestamp.format(log.at)), "day": .string(log.day),
        ]
        if let note = log.note { object["note"] = .string(note) }
        return .object(object)
    }
}
