import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import laurel_load

/// ``OpenLoopPacer``: one timer an event loop, every request sent once its time has come, none before.
@Suite struct OpenLoopPacerTests {
    /// A connection's schedule in miniature: sends at the given instants, records when each left and how many
    /// timers the pacer had set at that moment.
    final class RecordingSender: PacedSending, @unchecked Sendable {
        let schedule: [ContinuousClock.Instant]
        let pacer: OpenLoopPacer
        var sent: [(due: ContinuousClock.Instant, at: ContinuousClock.Instant)] = []
        var mostTimersSeen = 0

        init(schedule: [ContinuousClock.Instant], pacer: OpenLoopPacer) {
            self.schedule = schedule
            self.pacer = pacer
        }

        func sendDue() -> ContinuousClock.Instant? {
            mostTimersSeen = max(mostTimersSeen, pacer.armedTimers)
            while sent.count < schedule.count {
                let due = schedule[sent.count]
                let now = ContinuousClock.now
                if due > now { return due }
                sent.append((due, now))
            }
            return nil
        }
    }

    @Test func everyRequestLeavesOnceItsTimeHasComeFromOneTimer() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let eventLoop = group.next()
        let pacer = OpenLoopPacer(eventLoop: eventLoop)
        // Far enough ahead that a busy machine still adds every connection before the first is due.
        let start = ContinuousClock.now + .milliseconds(200)
        // Forty connections staggered across 2 ms, each due every 4 ms, as an open loop's are; one of them due at
        // once (before the start).
        let senders = (0..<40).map { index in
            RecordingSender(
                schedule: (0..<5).map { start + .microseconds(index * 50) + .milliseconds(4 * $0) },
                pacer: pacer)
        }
        let early = RecordingSender(schedule: [.now - .milliseconds(1), start], pacer: pacer)
        let armed = try await eventLoop.submit {
            for sender in senders + [early] { pacer.add(sender) }
            return pacer.armedTimers
        }.get()
        #expect(armed <= 1)
        #expect(early.sent.count >= 1, "what is due when a connection is added leaves at once")

        // The last is due some 220 ms from now; a busy machine may run the loop late, never early.
        var (sent, mostTimers, armedAfter) = ([[(due: ContinuousClock.Instant, at: ContinuousClock.Instant)]](), 0, 1)
        for _ in 0..<500 {
            try await Task.sleep(for: .milliseconds(10))
            (sent, mostTimers, armedAfter) = try await eventLoop.submit {
                ((senders + [early]).map(\.sent), (senders + [early]).map(\.mostTimersSeen).max() ?? 0, pacer.armedTimers)
            }.get()
            if armedAfter == 0 { break }
        }
        for (index, requests) in sent.enumerated() {
            #expect(requests.count == (index == senders.count ? 2 : 5), "connection \(index) sent everything")
            for request in requests { #expect(request.at >= request.due, "connection \(index) sent before its time") }
        }
        #expect(mostTimers <= 1)
        #expect(armedAfter == 0, "no timer is left once nothing is due")
        try await group.shutdownGracefully()
    }
}
