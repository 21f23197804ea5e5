import Synchronization
import Testing
@testable import LaurelServer

/// The gate that bounds how many connections answer their first requests at once: never more than its limit,
/// the waiting ones admitted in arrival order, every one admitted in the end, and one source address never holding
/// more than a quarter of the places.
@Suite(.timeLimit(.minutes(1))) struct AuthenticationGateTests {
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
                    let place = await gate.enter(from: nil)
                    inside.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
                    try? await Task.sleep(for: .milliseconds(1))
                    inside.withLock { $0.now -= 1; $0.done += 1 }
                    gate.leave(place)
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
        let first = await gate.enter(from: nil)
        let order = Shared<[Int]>([])
        let waiters = Task {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<5 {
                    group.addTask {
                        let place = await gate.enter(from: nil)
                        order.withLock { $0.append(index) }
                        gate.leave(place)
                    }
                    // Each waiter queues before the next one is started (or, the last, is let in already).
                    try? await Self.waitUntil { gate.occupancy.waiting + order.withLock { $0.count } == index + 1 }
                }
            }
        }
        try await Self.waitUntil { gate.occupancy.waiting == 5 }
        #expect(order.withLock { $0 }.isEmpty, "nobody passes while the only place is taken")
        gate.leave(first)
        await waiters.value
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
    }

    @Test func aCrowdFromOneAddressLeavesThreeQuartersOfThePlacesToOthers() async throws {
        let gate = AuthenticationGate(limit: 8)
        let crowd = [await gate.enter(from: "198.18.0.1"), await gate.enter(from: "198.18.0.1")]
        let third = Task { await gate.enter(from: "198.18.0.1") }
        try await Self.waitUntil { gate.occupancy.heldBack == 1 }
        // Other addresses, and a connection without one, are let in at once.
        var others: [AuthenticationGate.Place] = []
        for source in ["198.18.0.2", "198.18.0.3", nil, "198.18.0.4"] { others.append(await gate.enter(from: source)) }
        #expect(gate.occupancy.running == 6)
        gate.leave(crowd[0])
        let thirdPlace = await third.value
        #expect(gate.occupancy.heldBack == 0)
        for place in [crowd[1], thirdPlace] + others { gate.leave(place) }
        let (running, waiting, heldBack, sources) = gate.occupancy
        #expect(running == 0 && waiting == 0 && heldBack == 0 && sources == 0, "everything handed back")
    }

    @Test func aHeldBackConnectionOfAnAddressJoinsTheEndOfTheLine() async throws {
        let gate = AuthenticationGate(limit: 4)
        let crowd = await gate.enter(from: "198.18.0.1")
        let filler = [await gate.enter(from: "198.18.0.2"), await gate.enter(from: "198.18.0.3"), await gate.enter(from: nil)]
        let order = Shared<[String]>([])
        let heldBack = Task {
            let place = await gate.enter(from: "198.18.0.1")
            order.withLock { $0.append("crowd") }
            gate.leave(place)
        }
        try await Self.waitUntil { gate.occupancy.heldBack == 1 }
        let inLine = Task {
            let place = await gate.enter(from: "198.18.0.5")
            order.withLock { $0.append("other") }
            gate.leave(place)
        }
        try await Self.waitUntil { gate.occupancy.waiting == 1 }
        // The crowd's place goes to the one in line; its held-back connection lines up behind.
        gate.leave(crowd)
        await inLine.value
        for place in filler { gate.leave(place) }
        await heldBack.value
        #expect(order.withLock { $0 } == ["other", "crowd"])
        #expect(gate.occupancy.sources == 0)
    }

    @Test func aCrowdFromOneAddressIsAllAdmittedInTheEndNeverAboveItsShare() async {
        let gate = AuthenticationGate(limit: 8)
        let inside = Shared((crowd: 0, crowdPeak: 0, done: 0))
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let source = index % 5 == 0 ? "198.18.0.\(index)" : "198.18.0.1"
                group.addTask {
                    let place = await gate.enter(from: source)
                    inside.withLock {
                        if source == "198.18.0.1" { $0.crowd += 1; $0.crowdPeak = max($0.crowdPeak, $0.crowd) }
                    }
                    try? await Task.sleep(for: .milliseconds(1))
                    inside.withLock {
                        if source == "198.18.0.1" { $0.crowd -= 1 }
                        $0.done += 1
                    }
                    gate.leave(place)
                }
            }
        }
        let (peak, done) = inside.withLock { ($0.crowdPeak, $0.done) }
        #expect(peak <= 2)
        #expect(done == 40)
        #expect(gate.occupancy.sources == 0)
    }

    /// Polls `condition` every millisecond for up to 10 s.
    static func waitUntil(_ condition: () -> Bool) async throws {
        let started = ContinuousClock.now
        while !condition() {
            try #require(started.duration(to: .now) < .seconds(10), "never")
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
