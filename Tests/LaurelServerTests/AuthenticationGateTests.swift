import Synchronization
import Testing
@testable import LaurelServer

/// The gate that bounds how many connections answer their first requests at once: never more than its limit,
/// the waiting ones admitted in arrival order, every one admitted in the end.
@Suite struct AuthenticationGateTests {
    /// A value the test's tasks share.
    final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
    }

    @Test func neverMoreThanTheLimitAndEveryoneInTheEnd() async {
        let gate = AuthenticationGate(limit: 3)
        let inside = Shared((now: 0, peak: 0, done: 0))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    await gate.enter()
                    inside.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
                    try? await Task.sleep(for: .milliseconds(1))
                    inside.withLock { $0.now -= 1; $0.done += 1 }
                    gate.leave()
                }
            }
        }
        let (peak, done) = inside.withLock { ($0.peak, $0.done) }
        #expect(peak <= 3)
        #expect(peak >= 2, "the gate let more than one in at a time")
        #expect(done == 50)
    }

    @Test func waitersAreAdmittedInArrivalOrder() async throws {
        let gate = AuthenticationGate(limit: 1)
        await gate.enter()
        let order = Shared<[Int]>([])
        let waiters = Task {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<5 {
                    group.addTask {
                        await gate.enter()
                        order.withLock { $0.append(index) }
                        gate.leave()
                    }
                    // Each waiter queues before the next one is started.
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
        }
        try await Task.sleep(for: .milliseconds(150))
        #expect(order.withLock { $0 }.isEmpty, "nobody passes while the only place is taken")
        gate.leave()
        await waiters.value
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
    }
}
