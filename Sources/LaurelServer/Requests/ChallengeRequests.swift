import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// CHALLENGES: the user's daily and weekly challenges with their progress. Today's are chosen now if nobody needed
/// them yet (a write, so the verb runs in the user's turn); a past day's are read as stored, with progress counted
/// from the facts of that period as they are now.
enum ChallengeRequests {
    static func challenges(_ request: ChallengesRequest, in context: RequestContext) async throws -> RequestOutcome {
        let now = context.now
        let held = try await context.sessionProgress(now: now).progress
        let today = held.today(at: now)
        let day = request.day ?? today
        guard day <= today, day >= today.adding(days: -ChallengesRequest.pastDays) else {
            throw ProtocolError.invalidArgument(
                field: "day", message: "challenges can be read for today and the \(ChallengesRequest.pastDays) days before")
        }
        var json = JSONWriter()
        guard day == today else {
            let (daily, weekly) = (ChallengeBook.Period(.daily, containing: day), ChallengeBook.Period(.weekly, containing: day))
            let stored = try await context.read { reader in try reader.challenges(of: [daily, weekly]) }
            ChallengeRendering.write(day: day, daily: stored[daily] ?? [], weekly: stored[weekly] ?? [], accumulator: held.accumulator, into: &json)
            return RequestOutcome(json: json)
        }
        let performed = try await context.write(.chooseChallenges, now: now)
        let progress = performed.decision.progress
        let current = progress.today(at: now)
        ChallengeRendering.write(
            day: current, daily: progress.challenges.challenges(of: .init(.daily, containing: current)) ?? [],
            weekly: progress.challenges.challenges(of: .init(.weekly, containing: current)) ?? [], accumulator: progress.accumulator,
            into: &json)
        return RequestOutcome(json: json, pushes: performed.pushes)
    }
}
