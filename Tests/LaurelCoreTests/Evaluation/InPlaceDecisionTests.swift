import Foundation
import LaurelCore
import Testing

/// A reported fact is decided on the session's progress itself (``ProgressEvaluator/evaluate(_:inPlace:with:now:)``),
/// not on a copy: it must come to what a decision on a copy does, and a decision that is not made (pieces needed
/// first, or refused) must hand back a progress that the next decision can start from as if nothing had been tried —
/// above all, the log allowance spent once.
@Suite struct InPlaceDecisionTests {
    static let now = Date(timeIntervalSince1970: 1_781_546_400)  // 2026-06-15T18:00:00Z

    @Test func decidingInPlaceComesToWhatDecidingOnACopyDoes() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        for amount in [5, 10, 15] { try user.log("pushups", amount) }
        try user.log("squats", 20, daysBack: 1)
        let fact = ReportedFact(.log(activity: "squats", amount: 30, note: nil), id: "next", at: Self.now)
        let onCopy = user.evaluator.evaluate(.report(fact), on: user.progress, now: Self.now)
        let inPlace = user.evaluator.evaluate(.report(fact), taking: user.progress, now: Self.now)
        #expect(inPlace.handedBack == nil, "decided, the progress goes to the decision")
        guard case .decided(let copied) = onCopy, case .decided(let changed) = inPlace.evaluation else {
            Issue.record("not decided")
            return
        }
        #expect(changed.progress.figures == copied.progress.figures)
        #expect(changed.progress.accumulator == copied.progress.accumulator)
        #expect(changed.progress.allowance == copied.progress.allowance)
        #expect(changed.writes.scores == copied.writes.scores)
        #expect(!changed.writes.scores.isEmpty, "a LOG of today moves the boards")
        #expect(changed.writes.figures == copied.writes.figures)
        #expect(changed.events == copied.events)
        #expect(user.progress.accumulator.totalLogs == 4, "a copy of the progress is never changed by a decision in place")
    }

    @Test func aRefusedFactHandsBackTheProgressWithNothingSpent() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now, limits: UserLimits(logsPerSecond: 1, logBurst: 2))
        try user.log("pushups", 10)
        try user.log("pushups", 10)
        let before = user.progress
        let fact = ReportedFact(.log(activity: "pushups", amount: 10, note: nil), id: "third", at: Self.now)
        // Refused after the evaluator reads whether the id was stored before (a retry is answered whatever the limit).
        var pieces = LoadedPieces()
        pieces.storedFacts[.init(.log, "third")] = .some(nil)
        let refused = user.evaluator.evaluate(.report(fact), taking: user.progress, with: pieces, now: Self.now)
        guard case .refused(.rateLimited) = refused.evaluation, let progress = refused.handedBack else {
            Issue.record("not refused for the allowance, or the progress not handed back")
            return
        }
        #expect(progress.allowance == before.allowance, "a refused fact spends nothing")
        #expect(progress.accumulator == before.accumulator)
        #expect(progress.figures == before.figures)
        #expect(progress.unlocks == before.unlocks)
    }

    @Test func aFactThatNeedsPiecesFirstSpendsTheAllowanceOnce() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        try user.log("pushups", 10)
        // Backfilled into periods whose challenges the progress does not hold: the decision needs them first.
        let fact = ReportedFact(.log(activity: "squats", amount: 12, note: nil), id: "backfill", at: Self.now.addingTimeInterval(-9 * 86_400))
        let before = user.progress
        let first = user.evaluator.evaluate(.report(fact), taking: user.progress, now: Self.now)
        guard case .needs(let wanted) = first.evaluation, var progress = first.handedBack else {
            Issue.record("decided without the backfilled day's periods, or the progress not handed back")
            return
        }
        #expect(wanted.contains { if case .challenges = $0 { true } else { false } })
        #expect(progress.allowance == before.allowance, "nothing is spent before the decision is made")
        #expect(progress.accumulator == before.accumulator)
        for piece in wanted {
            guard case .challenges(let period) = piece else { continue }
            progress.challenges.know(period, stored: [])
        }
        let onCopy = user.evaluator.evaluate(.report(fact), on: progress, now: Self.now)
        guard case .decided(let changed) = user.evaluator.evaluate(.report(fact), taking: progress, now: Self.now).evaluation,
              case .decided(let copied) = onCopy else {
            Issue.record("not decided once the periods are known")
            return
        }
        var once = before.allowance
        _ = once.spend(at: Self.now, limits: user.rules.limits)
        #expect(changed.progress.allowance == once, "one fact, one spend")
        #expect(changed.progress.allowance == copied.progress.allowance)
        #expect(changed.progress.accumulator == copied.progress.accumulator)
        #expect(changed.writes.scores == copied.writes.scores)
    }

    @Test func aDecisionInPlaceLeavesTheProgressInTheObjectItCameFrom() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now, limits: UserLimits(logsPerSecond: 1, logBurst: 2))
        try user.log("pushups", 10)
        var home = SharedProgress(user.progress)
        let first = ReportedFact(.log(activity: "pushups", amount: 10, note: nil), id: "second", at: Self.now)
        guard case .decided(let decision) = user.evaluator.evaluate(.report(first), inPlace: &home, now: Self.now) else {
            Issue.record("not decided")
            return
        }
        #expect(decision.shared === home, "decided, the object the progress came from is the decision's")
        #expect(home.progress.accumulator.totalLogs == 2)
        let writes = decision.takeWrites()
        #expect(writes.fact?.id == "second")
        #expect(decision.writes.isEmpty, "the writes are taken once, for the commit")

        // The allowance (two at once) is spent: the next fact is refused, and the progress is back where it was.
        var next = SharedProgress(decision.progress)
        let allowance = next.progress.allowance
        var pieces = LoadedPieces()
        pieces.storedFacts[.init(.log, "third")] = .some(nil)
        let third = ReportedFact(.log(activity: "pushups", amount: 10, note: nil), id: "third", at: Self.now)
        guard case .refused(.rateLimited) = user.evaluator.evaluate(.report(third), inPlace: &next, with: pieces, now: Self.now) else {
            Issue.record("not refused for the allowance")
            return
        }
        #expect(next.progress.allowance == allowance, "a refused fact spends nothing")
        #expect(next.progress.accumulator.totalLogs == 2)
        #expect(SharedProgress.take(from: &next)?.accumulator.totalLogs == 2, "the object holds the progress again, held alone")
    }

    @Test func aProgressHeldElsewhereIsNotTaken() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        try user.log("pushups", 10)
        var shared = SharedProgress(user.progress)
        let reader = shared
        #expect(SharedProgress.take(from: &shared) == nil, "another holder reads it: it is not taken")
        #expect(reader.progress.accumulator.totalLogs == 1)
        var alone = SharedProgress(user.progress)
        let taken = SharedProgress.take(from: &alone)
        #expect(taken?.accumulator.totalLogs == 1, "held alone, the progress is moved out")
        #expect(SharedProgress.take(from: &alone) == nil, "and nothing is left to take")
    }
}
