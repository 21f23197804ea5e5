import Foundation
import LaurelCore
import LaurelProtocol

/// The permit a LOG, LESSON.DONE or EVENT needs to add a new fact: its `at` within the allowed window and the user
/// within their rate (one log taken from the user's `LogRateBucket`). Only new facts are judged: a retry of one already stored gets its first answer whatever
/// the clock or the rate say now, and costs nothing. The allowance is taken before the transaction (it lives in
/// the user's session) and given back when nothing new was stored.
struct NewFactPermit: Sendable {
    private let timeProblem: LogTimePolicy.Problem?
    private let rateWait: Duration?
    private let session: UserSession

    init(at: Date?, now: Date, in context: RequestContext) async {
        timeProblem = at.flatMap { context.services.configuration.logTimePolicy.problem(with: $0, now: now) }
        session = context.session
        rateWait = await session.spendLogAllowance()
    }

    /// Whether a new fact is allowed (there is no refusal to give).
    var allowsNewFact: Bool { timeProblem == nil && rateWait == nil }

    /// Throws the refusal for a new fact, if there is one. Call it after finding that the id is new.
    func throwIfRefused() throws {
        if let timeProblem { throw LogRequests.error(for: timeProblem) }
        if let rateWait {
            throw ProtocolError.rateLimited(retryAfterMs: Int(max(1, rateWait.wholeMilliseconds)))
        }
    }

    /// Gives the allowance back when the request stored nothing new (a duplicate, or an error).
    func settle(storedNew: Bool) async {
        if !storedNew, rateWait == nil { await session.refundLogAllowance() }
    }

    /// Runs `body` (which reports whether it stored a new fact) and settles the allowance.
    func run<T>(_ body: () async throws -> (T, storedNew: Bool)) async throws -> T {
        do {
            let (value, storedNew) = try await body()
            await settle(storedNew: storedNew)
            return value
        } catch {
            await settle(storedNew: false)
            throw error
        }
    }
}
