import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import LaurelPostgres

/// How `GroupCommit` spreads writes over flushers: one flusher while the backlog is small (its batches grow
/// instead), another once enough writes wait, and every write answered with its own outcome.
@Suite("GroupCommit")
struct GroupCommitTests {
    /// Stores batches slowly enough for writes to pile up, noting how many batches run at once.
    final class SlowFlush: Sendable {
        let running = NIOLockedValueBox((now: 0, peak: 0, batches: 0))

        func flush(_ writes: [Int], _ connection: PostgresConnection) throws -> [Int] {
            running.withLockedValue { state in
                state.now += 1
                state.peak = max(state.peak, state.now)
                state.batches += 1
            }
            defer { running.withLockedValue { $0.now -= 1 } }
            Thread.sleep(forTimeInterval: 0.02)
            return writes.map { $0 * 10 }
        }

        var peak: Int { running.withLockedValue { $0.peak } }
    }

    static func submitAll(_ count: Int, to commits: GroupCommit<Int, Int>) async throws -> [Int] {
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for write in 0..<count {
                group.addTask { (write, try await commits.submit(write)) }
            }
            var outcomes = [Int](repeating: -1, count: count)
            for try await (write, outcome) in group { outcomes[write] = outcome }
            return outcomes
        }
    }

    @Test("a backlog smaller than backlogPerFlusher waits for the one flusher")
    func aSmallBacklogKeepsOneFlusher() async throws {
        let flush = SlowFlush()
        let outcomes = try await ClientTestDatabase.withPool(size: 3) { pool in
            let commits = GroupCommit<Int, Int>(pool: pool, maxBatch: 4, maxFlushers: 2, backlogPerFlusher: 64, flush: flush.flush)
            return try await Self.submitAll(40, to: commits)
        }
        #expect(outcomes == (0..<40).map { $0 * 10 }, "each write gets its own outcome")
        #expect(flush.peak == 1, "40 waiting writes never started a second flusher")
        #expect(flush.running.withLockedValue { $0.batches } >= 10, "batches of at most 4")
    }

    @Test("a backlog of more than backlogPerFlusher starts another flusher")
    func aDeepBacklogStartsAnotherFlusher() async throws {
        let flush = SlowFlush()
        let outcomes = try await ClientTestDatabase.withPool(size: 3) { pool in
            let commits = GroupCommit<Int, Int>(pool: pool, maxBatch: 4, maxFlushers: 2, backlogPerFlusher: 8, flush: flush.flush)
            return try await Self.submitAll(100, to: commits)
        }
        #expect(outcomes == (0..<100).map { $0 * 10 })
        #expect(flush.peak == 2, "a second batch ran beside the first, and never a third")
    }
}
