import LaurelTestSupport
import Testing

@testable import LaurelPostgres

/// Group commit's bookkeeping without a database: when a flusher starts, which writes leave together, when a
/// second flusher is worth starting, and what becomes of waiting writes when no connection can be had.
@Suite struct GroupCommitLineTests {
    typealias Line = GroupCommitLine<Int>

    @Test func aWriteOnAnIdleLineStartsAFlusherAtOnce() {
        var line = Line(maxBatch: 256, maxFlushers: 2, backlogPerFlusher: 64)
        #expect(line.submit(1) == .startFlusher)
        #expect(line.flushers == 1)
        #expect(line.nextBatch() == [1])
        #expect(line.nextBatch() == nil, "nothing waits: the flusher stops")
        #expect(line.flushers == 0)
        #expect(line.submit(2) == .startFlusher, "the next write starts one again")
    }

    @Test func writesArrivingMeanwhileLeaveTogetherInOneBatch() {
        var line = Line(maxBatch: 256, maxFlushers: 2, backlogPerFlusher: 64)
        #expect(line.submit(0) == .startFlusher)
        #expect(line.nextBatch() == [0])
        for write in 1...10 { #expect(line.submit(write) == .wait, "a flusher runs and 10 writes are far below the backlog") }
        #expect(line.nextBatch() == Array(1...10))
    }

    @Test func aSecondFlusherStartsOnlyWhenTheBacklogIsLarge() {
        var line = Line(maxBatch: 256, maxFlushers: 2, backlogPerFlusher: 64)
        #expect(line.submit(0) == .startFlusher)
        #expect(line.nextBatch() == [0])
        var actions: [Line.SubmitAction] = []
        for write in 1...65 { actions.append(line.submit(write)) }
        #expect(actions.dropLast().allSatisfy { $0 == .wait })
        #expect(actions.last == .startFlusher, "the 65th waiting write is more than 64 for the one running flusher")
        #expect(line.flushers == 2)
        for write in 66...300 { #expect(line.submit(write) == .wait, "never more than maxFlushers") }
    }

    @Test func batchesAreCappedAndTakeTheOldestFirst() {
        var line = Line(maxBatch: 3, maxFlushers: 1, backlogPerFlusher: 64)
        for write in 0..<7 { _ = line.submit(write) }
        #expect(line.nextBatch() == [0, 1, 2])
        #expect(line.nextBatch() == [3, 4, 5])
        #expect(line.nextBatch() == [6])
        #expect(line.nextBatch() == nil)
    }

    @Test func theBacklogIsNeverLargerThanABatch() {
        var line = Line(maxBatch: 8, maxFlushers: 2, backlogPerFlusher: 64)
        #expect(line.backlogPerFlusher == 8)
        #expect(line.submit(0) == .startFlusher)
        #expect(line.nextBatch() == [0])
        for write in 1...8 { #expect(line.submit(write) == .wait) }
        #expect(line.submit(9) == .startFlusher, "9 waiting for one flusher of batches of 8")
    }

    @Test func writesAreGivenUpOnlyWhenNoFlusherIsLeftToTakeThem() {
        var line = Line(maxBatch: 256, maxFlushers: 2, backlogPerFlusher: 1)
        #expect(line.submit(0) == .startFlusher)
        #expect(line.submit(1) == .startFlusher)
        _ = line.submit(2)
        #expect(line.flusherFailed().isEmpty, "another flusher still runs and takes them")
        #expect(line.flusherFailed() == [0, 1, 2], "the last one failed: every waiting write fails")
        #expect(line.flushers == 0 && line.waiting.isEmpty)
    }

    /// Whatever order writes arrive, batches are taken and flushers fail in, every write leaves exactly once (in one
    /// batch or one failure) and none waits with no flusher left to take it: ``GroupCommit`` resumes each write's
    /// continuation when it leaves, unchecked, so this is what keeps every caller resumed once.
    @Test(arguments: 0..<60)
    func everyWriteLeavesExactlyOnce(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        var line = Line(maxBatch: 1 + random.below(8), maxFlushers: 1 + random.below(3), backlogPerFlusher: 1 + random.below(8))
        var running = 0
        var left: [Int] = []
        var submitted = 0
        func take() {
            if let batch = line.nextBatch() { left += batch } else { running -= 1 }
        }
        for _ in 0..<400 {
            switch random.below(4) {
            case 0, 1:
                if line.submit(submitted) == .startFlusher { running += 1 }
                submitted += 1
            case 2:
                if running > 0 { take() }
            default:
                // A flusher that got no connection.
                if running > 0 {
                    running -= 1
                    left += line.flusherFailed()
                }
            }
            #expect(line.flushers == running)
            #expect(running > 0 || line.waiting.isEmpty, "writes wait with no flusher to take them (seed \(seed))")
        }
        while running > 0 { take() }
        #expect(left.count == submitted && Set(left).count == submitted, "seed \(seed)")
        #expect(Set(left) == Set(0..<submitted))
    }
}
