import Histogram
import Testing

@testable import laurel_load

/// The open loop's own lag (how late after its slot a request left) is reported beside the latency it is part of,
/// slice by slice, so that a stall of the client is not read as one of the server.
@Suite struct SendLagTests {
    @Test func eachSliceNamesTheLatestItsRequestsLeft() {
        let start = ContinuousClock.now
        var tally = ConnectionTally(index: 0, userIndex: 0)
        tally.prepareForLoad(sendLag: true)
        tally.timeline = (start, .milliseconds(100))
        for (offset, lag) in [(10, 200), (50, 4_000), (120, 900), (250, 0)] {
            let sentAt = start + .milliseconds(offset)
            tally.recordSendLag(UInt64(lag), sentAt: sentAt)
            tally.recordAnswer(errorCode: nil, unlocked: [], sentAt: sentAt, measured: true, at: sentAt + .milliseconds(2))
        }
        let timeline = LatencyTimeline(tallies: [tally], slice: .milliseconds(100))
        #expect(timeline.slices.map(\.sendLagMaxMilliseconds) == [4.0, 0.9, 0.0])
        #expect(tally.sendLag.totalCount == 4)
    }

    @Test func aClosedLoopHasNoSendLag() {
        let start = ContinuousClock.now
        var tally = ConnectionTally(index: 0, userIndex: 0)
        tally.timeline = (start, .milliseconds(100))
        tally.recordAnswer(errorCode: nil, unlocked: [], sentAt: start, measured: true, at: start + .milliseconds(3))
        let timeline = LatencyTimeline(tallies: [tally], slice: .milliseconds(100))
        #expect(timeline.slices.map(\.sendLagMaxMilliseconds) == [nil])
    }
}
