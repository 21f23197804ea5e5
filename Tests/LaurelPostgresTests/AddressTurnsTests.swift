import CoreMetrics
import Testing

@testable import LaurelPostgres

/// The in-memory turns of one address's AUTHs with real tasks: a turn ended twice (once when its AUTH holds the
/// address's lock, once when the AUTH is answered) is handed on once.
@Suite struct AddressTurnsTests {
    @Test func aTurnEndedTwiceIsHandedOnOnce() async throws {
        let turns = AddressTurns(metrics: NOOPMetricsHandler.instance)
        let first = await turns.take("198.18.0.1")
        let second = Task { await turns.take("198.18.0.1") }
        try await Self.waitUntil { turns.waitingCount == 1 }
        first.end()
        first.end()
        let secondTurn = await second.value
        let third = Task { await turns.take("198.18.0.1") }
        // Had the second end handed the turn on again (to nobody, ending it), the third would have it at once.
        try await Self.waitUntil { turns.waitingCount == 1 }
        secondTurn.end()
        let thirdTurn = await third.value
        thirdTurn.end()
        #expect(turns.waitingCount == 0)
        let again = await turns.take("198.18.0.1")
        again.end()
    }

    @Test func anotherAddressHasItsTurnWhileOneIsBusy() async {
        let turns = AddressTurns(metrics: NOOPMetricsHandler.instance)
        let busy = await turns.take("198.18.0.1")
        let other = await turns.take("198.18.0.2")
        #expect(turns.waitingCount == 0)
        other.end()
        busy.end()
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
