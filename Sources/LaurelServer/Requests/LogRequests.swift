import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// LOG, LOG.DELETE and LOGS.
enum LogRequests {
    /// A LOG. The common case (a new log of a known activity, the user's state held by the session) is evaluated
    /// in memory and stored as one `LogCommit`, batched with other users' LOGs; everything else (a retry, a
    /// refusal, a speed window, a writer elsewhere in between) takes the transactional path under the user's lock.
    static func log(_ log: LogRequest, in context: RequestContext) async throws -> RequestOutcome {
        try await FactFlow.record(log, in: context)
    }

    static func delete(_ request: IDRequest, in context: RequestContext) async throws -> RequestOutcome {
        let (id, engine) = (request.id, context.engine)
        let (response, pushes) = try await context.transaction { records -> (JSONValue, [StoredPush]) in
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

    static func list(_ query: LogsRequest, in context: RequestContext) async throws -> RequestOutcome {
        let (activity, limit, before) = (query.activity, query.limit, query.before)
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
            let page = try records.logs(LogQuery(activityID: activityID, fromDay: query.from, toDay: query.to, beforeLogID: before, limit: limit + 1))
            var object: JSONObject = ["logs": .array(page.prefix(limit).map(LogRendering.json))]
            if page.count > limit, let last = page.prefix(limit).last { object["next"] = .string(last.id) }
            return .object(object)
        }
        return RequestOutcome(response)
    }
}

enum LogRendering {
    static func json(_ log: StoredLog) -> JSONValue {
        var object: JSONObject = [
            "id": .string(log.id), "activity": .string(log.activityID), "amount": .int(log.amount),
            "at": .string(Timestamp.format(log.at)), "day": .string(log.day.description),
        ]
        if let note = log.note { object["note"] = .string(note) }
        return .object(object)
    }
}

extension LogRequest: ReportedFact {
    static let noun = "log"

    /// A retry is the same LOG when it names the same activity, amount, `at` (as sent) and note.
    func earlierReport(id: String, in records: any UserRecords, catalog: Catalog) throws -> EarlierReport? {
        guard let stored = try records.log(id: id) else { return nil }
        var same = stored.amount == amount && stored.note == note && sameTime(as: stored.requestedAt)
        if same {
            let named = try catalog.builtinActivity(named: activity) ?? ActivityLookup.custom(activity, in: records)
            same = named?.id == stored.activityID
        }
        return EarlierReport(isSameFact: same, answer: stored.response)
    }

    func store(now: Date, in records: any UserRecords, catalog: Catalog) throws -> NewReport {
        guard let activity = try ActivityLookup.live(activity, catalog: catalog, in: records) else {
            throw ProtocolError.notFound(field: "activity")
        }
        let (log, fact) = newLog(of: activity, zone: try records.timeZone(), now: now)
        try records.insertLog(log)
        return NewReport(id: log.id, change: .newLog(fact), json: LogRendering.json(log))
    }

    static func keepAnswer(_ answer: JSONValue, id: String, in records: any UserRecords) throws {
        try records.setLogResponse(id: id, response: answer)
    }

    /// Evaluates the LOG against the session's state and commits it with the answer in one statement. A commit
    /// that finds the version moved on (the user logged on another instance meanwhile) catches the session up with
    /// the LOGs stored since and tries again, a few times, before leaving the LOG to the transactional path: a
    /// catch-up is one statement, while the transactional path ends the run of LOG commits, so that the other
    /// instance's next catch-up becomes a full load (under load, one fallback would bring on the next).
    func recordFromSession(now: Date, in context: RequestContext) async throws -> FactRecording? {
        for attempt in 1...Self.sessionCommitAttempts {
            switch try await commitFromSession(now: now, in: context) {
            case .recorded(let recording): return recording
            case .notHere: return nil
            case .stale:
                context.session.stateCache.noteBehind()
                if attempt < Self.sessionCommitAttempts {
                    context.services.metrics.countStaleRetry()
                } else {
                    context.session.stateCache.demote()
                    context.services.metrics.countTransactionalFallback()
                }
            }
        }
        return nil
    }

    /// How many times a LOG is evaluated and committed from the session before it takes the transactional path.
    static let sessionCommitAttempts = 4

    private enum SessionCommit {
        case recorded(FactRecording)
        /// The session cannot decide this LOG (a speed window, an unknown activity, a backfill while the catalog
        /// has challenges, today's challenges not at hand) or the id is taken.
        case notHere
        case stale
    }

    private func commitFromSession(now: Date, in context: RequestContext) async throws -> SessionCommit {
        let cache = context.session.stateCache
        var progress = try await context.sessionProgress(now: now)
        var chosen: [ChallengeChoice] = []
        let today = LocalDay(of: now, in: progress.context.zone)
        if progress.needsChallengeBoard(today: today, pool: context.catalog.challengePool),
           LocalDay(of: at ?? now, in: progress.context.zone) == today {
            (progress, chosen) = try await context.sessionProgressWithChallenges(now: now, storingChoices: false)
        }
        guard let activity = progress.liveActivity(activity, catalog: context.catalog),
              progress.canRecordLog(of: activity.id) else { return .notHere }
        var (log, fact) = newLog(of: activity, zone: progress.context.zone, now: now)
        guard progress.challengesAllowRecording(fact, now: now, pool: context.catalog.challengePool) else { return .notHere }
        let decision = progress.decide(recording: fact, now: now)
        let answer = FactAnswer.json(fact: LogRendering.json(log), evaluation: decision.evaluation(pushes: []))
        log.response = answer
        let limits = context.services.configuration.limits
        let commit = LogCommit(
            user: context.user.id, expectedVersion: progress.version, log: log, unlocks: decision.unlocks.map(\.id),
            challengesChosen: chosen, challengesCompleted: decision.challengesCompleted, decidedAt: now, pushes: decision.pushes, figures: decision.figures,
            rateLimit: limits)
        switch try await context.store.commitLog(commit) {
        case .committed(let version, let logSeq, let pushes):
            progress.apply(decision, recording: fact, version: version, logSeq: logSeq, pushes: pushes, now: now)
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
            return .recorded(FactRecording(answer: answer, pushes: pushes, storedNew: true))
        case .stale:
            // The session keeps what it held (the chosen challenges were not stored); catching up tells it what was.
            return .stale
        case .duplicate:
            return .notHere
        case .rateLimited:
            // The allowance every instance shares is spent (the user logs elsewhere too, or reconnected).
            throw ProtocolError.rateLimited(retryAfterMs: limits.millisecondsPerLog)
        }
    }

    /// The new log as stored: its day and local hour in the user's zone now, an id chosen when none was sent.
    private func newLog(of activity: Activity, zone: TimeZone, now: Date) -> (StoredLog, LoggedFact) {
        let at = self.at ?? now
        let local = LocalDateTime(of: at, in: zone)
        let id = self.id ?? UUID().uuidString.lowercased()
        let log = StoredLog(
            id: id, activityID: activity.id, amount: amount, at: at, day: local.day, note: note,
            requestedAt: self.at, localHour: local.hour)
        return (log, LoggedFact(id: id, activity: activity.id, amount: amount, at: at, day: local.day, localHour: local.hour))
    }
}
