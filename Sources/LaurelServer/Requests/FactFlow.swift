import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// A fact a client reports under its own idempotency key: a LOG, a LESSON.DONE or an EVENT. ``FactFlow`` runs
/// all three the same way; a fact says only how it is found again, stored and answered.
protocol ReportedFact: Sendable {
    /// What the id names, for the conflict of an id reused for something else.
    static var noun: String { get }
    /// The client's idempotency key.
    var id: String? { get }
    /// When the client says it happened (`at` as sent); now when nil.
    var at: Date? { get }
    /// The fact stored earlier under `id`, if there is one.
    func earlierReport(id: String, in records: any UserRecords, catalog: Catalog) throws -> EarlierReport?
    /// Stores the new fact; the evaluation that follows counts it among the facts.
    func store(now: Date, in records: any UserRecords, catalog: Catalog) throws -> NewReport
    /// Keeps the answer with the stored fact, so that a retry gets it back.
    static func keepAnswer(_ answer: JSONValue, id: String, in records: any UserRecords) throws
    /// The fact evaluated in the session's memory and committed in one statement; nil when it has to take the
    /// transactional path (nothing was stored then).
    func recordFromSession(now: Date, in context: RequestContext) async throws -> FactRecording?
}

extension ReportedFact {
    func recordFromSession(now: Date, in context: RequestContext) async throws -> FactRecording? { nil }

    /// Whether a retry sent the same `at` as the stored fact (both absent, or the same instant to the microsecond).
    func sameTime(as stored: Date?) -> Bool {
        switch (stored, at) {
        case (nil, nil): true
        case (let a?, let b?): abs(a.timeIntervalSince(b)) < 0.000_001
        default: false
        }
    }
}

/// The fact found under a retried id: whether it is the same fact, and the answer it got first.
struct EarlierReport {
    var isSameFact: Bool
    var answer: JSONValue?
}

/// A fact just stored: its id, the change it is to the user's progress, and how the answer shows it.
struct NewReport {
    var id: String
    var change: ProgressEngine.Change
    var json: JSONValue
}

/// What recording a fact came to: the answer, the pushes it stored, and whether a new fact was stored (a retry
/// stores nothing).
struct FactRecording: Sendable {
    var answer: JSONValue
    var pushes: [StoredPush]
    var storedNew: Bool

    var outcome: RequestOutcome {
        var outcome = RequestOutcome(answer, pushes: pushes)
        outcome.storedNewFact = storedNew
        return outcome
    }
}

/// The one flow of LOG, LESSON.DONE and EVENT, run in the user's turn: the session's memory path when the fact
/// allows it, else one transaction under the user's lock in which a retry gets its first answer back (before any
/// refusal), and a new fact passes its permit, is stored, evaluated and answered, and keeps its answer.
enum FactFlow {
    static func record<Fact: ReportedFact>(_ fact: Fact, in context: RequestContext) async throws -> RequestOutcome {
        let now = Date()
        let permit = NewFactPermit(at: fact.at, now: now, in: context)
        let metrics = context.services.metrics
        if permit.allowsNewFact, let recorded = try await fact.recordFromSession(now: now, in: context) {
            metrics.countFactStored(fromSession: true)
            return recorded.outcome
        }
        let (catalog, engine, limits) = (context.catalog, context.engine, context.services.configuration.limits)
        let recorded = try await context.transaction { records in
            if let id = fact.id, let earlier = try fact.earlierReport(id: id, in: records, catalog: catalog) {
                guard earlier.isSameFact else {
                    throw ProtocolError.conflict("id \"\(id)\" was used for a different \(Fact.noun)")
                }
                return FactRecording(answer: try FactAnswer.replay(earlier.answer), pushes: [], storedNew: false)
            }
            try permit.throwIfRefused()
            guard try records.spendLogAllowance(limits) else {
                throw ProtocolError.rateLimited(retryAfterMs: limits.millisecondsPerLog)
            }
            let new = try fact.store(now: now, in: records, catalog: catalog)
            let evaluation = try engine.evaluate(new.change, in: records, now: now)
            let answer = FactAnswer.json(fact: new.json, evaluation: evaluation)
            try Fact.keepAnswer(answer, id: new.id, in: records)
            return FactRecording(answer: answer, pushes: evaluation.pushes, storedNew: true)
        }
        if recorded.storedNew { metrics.countFactStored(fromSession: false) }
        return recorded.outcome
    }
}
