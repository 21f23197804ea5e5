import Foundation
import LaurelCore
import Testing

/// The allowance of failed AUTHs per source address: a burst at once, then the sustained rate; refusals say how
/// long to wait; a whole allowance needs no stored state.
@Suite struct FailedAuthAllowanceTests {
    let limit = FailedAuthLimit(perSecond: 2, burst: 5)
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theBurstThenTheRate() {
        var allowance = FailedAuthAllowance(available: nil, at: nil)
        for _ in 0..<5 {
            #expect(allowance.refusal(at: start, limit: limit) == nil)
            allowance.spendFailure(at: start, limit: limit)
        }
        #expect(allowance.refusal(at: start, limit: limit) == 500)
        #expect(allowance.refusal(at: start.addingTimeInterval(0.2), limit: limit) == 300)
        #expect(allowance.refusal(at: start.addingTimeInterval(0.5), limit: limit) == nil)
        // Over a minute of guessing at any pace, at most the burst and the rate's worth fail.
        var failures = 0
        for tenth in 0..<600 {
            let now = start.addingTimeInterval(Double(tenth) / 10)
            if allowance.refusal(at: now, limit: limit) == nil {
                allowance.spendFailure(at: now, limit: limit)
                failures += 1
            }
        }
        #expect(failures == 119)
    }

    @Test func aStoredAllowanceRefillsToTheBurst() {
        let allowance = FailedAuthAllowance(available: 0, at: start)
        #expect(allowance.refusal(at: start, limit: limit) == 500)
        let later = start.addingTimeInterval(limit.refillSeconds)
        #expect(allowance.bucket.available(at: later.timeIntervalSince1970, perSecond: 2, burst: 5) == 5)
        #expect(limit.refillSeconds == 2.5)
    }
}
