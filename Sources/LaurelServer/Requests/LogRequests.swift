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

    /// A LOG. The common case (a new log of a known activity, the user's state held by the session) is evaluated
    /// in memory and stored as one `LogCommit`, batched with other users' LOGs; everything else (a retry, a
    /// refusal, a speed window, a writer elsewhere in between) takes the transactional path under the user's lock.
    static func log(_ draft: Draft, in context: RequestContext) async throws -> RequestOutcome {
        let now = Date()
        let permit = await NewFactPermit(at: draft.at, now: now, in: context)
        let (response, pushes) = try await permit.run {
            try await context.session.inTurn { () -> ((JSONValue, [StoredPush]), storedNew: Bool) in
                let metrics = context.services.metrics
                if permit.allowsNewFact, let committed = try await logFromSession(draft, now: now, in: context) {
                    metrics.countLogStored(fromSession: true)
                    return (committed, true)
                }
                let answer = try await logInTransaction(draft, permit: permit, now: now, in: context)
                if answer.storedNew { metrics.countLogStored(fromSession: false) }
                return answer
            }
        }
        return RequestOutcome(response, pushes: pushes)
    }

    /// Evaluates the LOG against the session's state and commits it; nil when it has to take the transactional
    /// path instead (nothing was stored then).
    private static func logFromSession(_ draft: Draft, now: Date, in context: RequestContext) async throws -> (JSONValue, [StoredPush])? {
        let cache = context.session.stateCache
        var progress = try await context.sessionProgress(now: now)
        guard let activity = progress.liveActivity(draft.activity, catalog: context.catalog),
              progress.canRecordLog(of: activity.id) else { return nil }
        var (log, fact) = newLog(draft, activity: activity, zone: progress.context.zone, now: now)
        let decision = progress.decide(recording: fact, now: now)
        let answer = FactAnswer.json(fact: LogRendering.json(log), evaluation: decision.evaluation(pushes: []))
        log.response = answer
        let commit = LogCommit(
            user: context.user.id, expectedVersion: progress.version, log: log, unlocks: decision.unlocks.map(\.id),
            unlockedAt: now, pushes: decision.pushes, figures: decision.figures)
        switch try await context.store.commitLog(commit) {
        case .committed(let version, let logSeq, let pushes):
            progress.apply(decision, version: version, logSeq: logSeq, pushes: pushes, now: now)
            // A session that lasts (a device connected for days) stores its state now and then, so that a restart
            // adds the logs since instead of rebuilding from all of them. One try per interval.
            let checkpointDue = progress.version - progress.savedVersion >= SessionProgress.checkpointInterval
            if checkpointDue { progress.savedVersion = progress.version }
            cache.keep(progress)
            if checkpointDue {
                let (store, user, state, version) = (context.store, context.user.id, progress.state, progress.version)
                Task {
                    guard let text = try? state.encoded() else { return }
                    try? await store.saveProgressState(user: user, state: text, version: version)
                }
            }
            return (answer, pushes)
        case .stale:
            cache.demote()
            return nil
        case .duplicate:
            return nil
        }
    }

    /// The LOG in one transaction under the user's lock: retries are recognised here, before any refusal.
    private static func logInTransaction(
        _ draft: Draft, permit: NewFactPermit, now: Date, in context: RequestContext
    ) async throws -> ((JSONValue, [StoredPush]), storedNew: Bool) {
        let catalog = context.catalog
        let engine = context.engine
        return try await context.writeInTurn { records -> ((JSONValue, [StoredPush]), storedNew: Bool) in
            if let id = draft.id, let existing = try records.log(id: id) {
                guard try sameContent(existing, draft, catalog: catalog, records: records) else {
                    throw ProtocolError.conflict("log id \"\(id)\" was used for a different log")
                }
                return ((try FactAnswer.replay(existing.response), []), false)
            }
            try permit.throwIfRefused()
            guard let activity = try ActivityLookup.live(draft.activity, catalog: catalog, in: records) else {
                throw ProtocolError.notFound(field: "activity")
            }
            let (log, fact) = newLog(draft, activity: activity, zone: try records.timeZone(), now: now)
            // Stored first: a rebuild or a speed window inside the evaluation counts it among the facts.
            try records.insertLog(log)
            let evaluation = try engine.evaluate(.newLog(fact), in: records, now: now)
            let answer = FactAnswer.json(fact: LogRendering.json(log), evaluation: evaluation)
            try records.setLogResponse(id: log.id, response: answer)
            return ((answer, evaluation.pushes), true)
        }
    }

    /// The new log as stored: its day and local hour in the user's zone now, an id chosen when none was sent.
    private static func newLog(_ draft: Draft, activity: Activity, zone: TimeZone, now: Date) -> (StoredLog, LoggedFact) {
        let at = draft.at ?? now
        let local = LocalDateTime(of: at, in: zone)
        let id = draft.id ?? UUID().uuidString.lowercased()
        let log = StoredLog(
            id: id, activityID: activity.id, amount: draft.amount, at: at, day: local.day.description, note: draft.note,
            requestedAt: draft.at, localHour: local.hour)
        return (log, LoggedFact(id: id, activity: activity.id, amount: draft.amount, at: at, day: local.day, localHour: local.hour))
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
