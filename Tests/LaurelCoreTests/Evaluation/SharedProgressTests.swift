import Foundation
import LaurelCore
import Testing

/// A session hands its progress to each decision by reference (``SharedProgress``), and keeps the decision's progress
/// the same way: a decision must never change the progress it started from, and deciding on the reference must come
/// to what deciding on the value does.
@Suite struct SharedProgressTests {
    static let now = Date(timeIntervalSince1970: 1_781_546_400)  // 2026-06-15T18:00:00Z

    @Test func aDecisionLeavesTheProgressItStartedFromAsItWas() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        try user.log("pushups", 10)
        let held = SharedProgress(user.progress)
        let fact = ReportedFact(.log(activity: "pushups", amount: 25, note: nil), id: "second", at: Self.now)
        guard case .decided(let decision) = user.evaluator.evaluate(.report(fact), on: held, now: Self.now) else {
            Issue.record("not decided")
            return
        }
        #expect(decision.shared !== held, "the decision's progress is an object of its own")
        #expect(held.progress.accumulator.totalLogs == 1, "the progress held still counts one log")
        #expect(held.progress.figures == user.progress.figures)
        #expect(decision.progress.accumulator.totalLogs == 2)
        #expect(decision.progress.figures.totalLogs == 2)
    }

    @Test func decidingOnTheReferenceComesToWhatDecidingOnTheValueDoes() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        for amount in [5, 10, 15] { try user.log("pushups", amount) }
        let fact = ReportedFact(.log(activity: "squats", amount: 30, note: nil), id: "next", at: Self.now)
        let byValue = user.evaluator.evaluate(.report(fact), on: user.progress, now: Self.now)
        let byReference = user.evaluator.evaluate(.report(fact), on: SharedProgress(user.progress), now: Self.now)
        guard case .decided(let value) = byValue, case .decided(let reference) = byReference else {
            Issue.record("not decided")
            return
        }
        #expect(value.progress.figures == reference.progress.figures)
        #expect(value.progress.accumulator == reference.progress.accumulator)
        #expect(value.writes.scores == reference.writes.scores)
        #expect(value.events == reference.events)
    }
}
