import Synchronization
import Testing
@testable import LaurelServer

/// The gate that bounds how many connections answer their first requests at once: never more than its limit,
/// the waiting ones admitted in arrival order, every one admitted in the end, and one source address never holding
/// more than half the places.
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

    @Test func aCrowdFromOneAddressLeavesHalfThePlacesToOthers() async throws {
        let gate = AuthenticationGate(limit: 4)
        await gate.enter(from: "198.18.0.1")
        await gate.enter(from: "198.18.0.1")
        let third = Shared(false)
        let waiting = Task {
            await gate.enter(from: "198.18.0.1")
            third.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!third.withLock { $0 }, "the address already holds half the places")
        // Another address, and a connection without one, are let in at once.
        await gate.enter(from: "198.18.0.2")
        await gate.enter(from: nil)
        gate.leave(from: "198.18.0.1")
        await waiting.value
        #expect(third.withLock { $0 }, "the address's place went to its next connection")
        for source in ["198.18.0.1", "198.18.0.1", "198.18.0.2", nil] { gate.leave(from: source) }
        // Everything handed back: the whole limit can be entered again at once.
        for source in ["198.18.0.3", "198.18.0.3", "198.18.0.4", "198.18.0.4"] { await gate.enter(from: source) }
    }

    @Test func aCrowdFromOneAddressIsAllAdmittedInTheEndNeverAboveItsShare() async {
        let gate = AuthenticationGate(limit: 4)
        let inside = Shared((crowd: 0, crowdPeak: 0, done: 0))
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let source = index % 5 == 0 ? "198.18.0.\(index)" : "198.18.0.1"
                group.addTask {
                    await gate.enter(from: source)
                    inside.withLock {
                        if source == "198.18.0.1" { $0.crowd += 1; $0.crowdPeak = max($0.crowdPeak, $0.crowd) }
                    }
                    try? await Task.sleep(for: .milliseconds(1))
                    inside.withLock {
                        if source == "198.18.0.1" { $0.crowd -= 1 }
                        $0.done += 1
                    }
                    gate.leave(from: source)
                }
            }
        }
        let (peak, done) = inside.withLock { ($0.crowdPeak, $0.done) }
        #expect(peak <= 2)
        #expect(done == 40)
    }
}
