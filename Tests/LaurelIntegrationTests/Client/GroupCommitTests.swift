import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import LaurelPostgres

/// How `GroupCommit` spreads writes over flushers: one flusher while the backlog is small (its batches grow
/// instead), another once enough writes wait, and every write answered with its own outcome.
@Suite("GroupCommit")
struct GroupCommitTests {
    /// Stores batches slowly enough for writes to pile up, noting how many batches run at once. The first batch
    /// holds on until another batch runs beside it (at most `firstWaitsForCompany` seconds), so whether a second
    /// flusher starts does not depend on how fast the machine happens to be.
    final class SlowFlush: Sendable {
        let running = NIOLockedValueBox((now: 0, peak: 0, batches: 0))
        let firstWaitsForCompany: TimeInterval

        init(firstWaitsForCompany: TimeInterval) {
            self.firstWaitsForCompany = firstWaitsForCompany
        }

        func flush(_ writes: [Int], _ connection: PostgresConnection) throws -> [Int] {
            let isFirst = running.withLockedValue { state in
                state.now += 1
                state.peak = max(state.peak, state.now)
                state.batches += 1
                return state.batches == 1
            }
            defer { running.withLockedValue { $0.now -= 1 } }
            if isFirst {
                let deadline = Date().addingTimeInterval(firstWaitsForCompany)
                while running.withLockedValue({ $0.now }) < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
            }
            Thread.sleep(forTimeInterval: 0.02)
            return writes.map { $0 * 10 }
        }

        var peak: Int { running.withLockedValue { $0.peak } }
    }

    /// Submits write 0, and writes 1..<count at once once write 0's batch is being stored.
    static func submitAll(_ count: Int, to commits: GroupCommit<Int, Int>, flush: SlowFlush) async throws -> [Int] {
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            group.addTask { (0, try await commits.submit(0)) }
            while flush.running.withLockedValue({ $0.batches }) == 0 { try await Task.sleep(for: .milliseconds(1)) }
            for write in 1..<count {
                group.addTask { (write, try await commits.submit(write)) }
            }
            var outcomes = [Int](repeating: -1, count: count)
            for try await (write, outcome) in group { outcomes[write] = outcome }
            return outcomes
        }
    }

    @Test("a backlog smaller than backlogPerFlusher waits for the one flusher")
    func aSmallBacklogKeepsOneFlusher() async throws {
        let flush = SlowFlush(firstWaitsForCompany: 0.3)
        let outcomes = try await ClientTestDatabase.withPool(size: 3) { pool in
            let commits = GroupCommit<Int, Int>(pool: pool, maxBatch: 64, maxFlushers: 2, backlogPerFlusher: 64, flush: flush.flush)
            return try await Self.submitAll(40, to: commits, flush: flush)
        }
        #expect(outcomes == (0..<40).map { $0 * 10 }, "each write gets its own outcome")
        #expect(flush.peak == 1, "39 writes waiting behind a batch never started a second flusher")
        #expect(flush.running.withLockedValue { $0.batches } == 2, "they left together, in the one batch after the first")
    }

    @Test("a backlog of more than backlogPerFlusher starts another flusher")
    func aDeepBacklogStartsAnotherFlusher() async throws {
        let flush = SlowFlush(firstWaitsForCompany: 5)
        let outcomes = try await ClientTestDatabase.withPool(size: 3) { pool in
            let commits = GroupCommit<Int, Int>(pool: pool, maxBatch: 4, maxFlushers: 2, backlogPerFlusher: 8, flush: flush.flush)
            return try await Self.submitAll(100, to: commits, flush: flush)
        }
        #expect(outcomes == (0..<100).map { $0 * 10 })
        #expect(flush.peak == 2, "a second batch ran beside the first, and never a third")
    }
}
