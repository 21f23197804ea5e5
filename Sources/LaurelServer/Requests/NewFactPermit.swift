import Foundation
import LaurelCore
import LaurelProtocol

/// The permit a LOG, LESSON.DONE or EVENT needs to add a new fact: its `at` within the allowed window and the user
/// within their log rate (the log the ``VerbTable`` took for the request). Only new facts are judged: a retry of
/// one already stored gets its first answer whatever the clock or the rate say now, and costs nothing.
struct NewFactPermit: Sendable {
    private let timeProblem: LogTimePolicy.Problem?
    private let allowance: FactAllowance

    init(at: Date?, now: Date, in context: RequestContext) {
        timeProblem = at.flatMap { context.services.configuration.logTimePolicy.problem(with: $0, now: now) }
        allowance = context.factAllowance
    }

    /// Whether a new fact is allowed (there is no refusal to give).
    var allowsNewFact: Bool {
        if case .refused = allowance { return false }
        return timeProblem == nil
    }

    /// Throws the refusal for a new fact, if there is one. Call it after finding that the id is new.
    func throwIfRefused() throws {
        if let timeProblem { throw Self.error(for: timeProblem) }
        if case .refused(let wait) = allowance {
            throw ProtocolError.rateLimited(retryAfterMs: Int(max(1, wait.wholeMilliseconds)))
        }
    }

    static func error(for problem: LogTimePolicy.Problem) -> ProtocolError {
        switch problem {
        case .inFuture: .invalidArgument(field: "at", message: "at is more than 5 minutes in the future")
        case .beforeBackfillWindow: .invalidArgument(field: "at", message: "at is older than the backfill window")
        }
    }
}
