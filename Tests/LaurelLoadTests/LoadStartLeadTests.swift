import Testing

@testable import laurel_load

/// ``LoadRunner/startLead(pace:connections:)``: an open loop's schedule begins after every connection has had time to
/// set its sender up, so that the client's own set-up is not measured as the server's latency.
@Suite struct LoadStartLeadTests {
    @Test func anOpenLoopBeginsAfterALeadThatGrowsWithItsConnections() {
        let pace = LoadPlan.Pace.openLoop(logsPerSecond: 5000)
        let one = LoadRunner.startLead(pace: pace, connections: 1)
        let many = LoadRunner.startLead(pace: pace, connections: 2000)
        #expect(one > .zero)
        #expect(many > one)
        // 2,000 connections set their senders up in some 40-60 ms of a busy two-core machine; the lead covers it.
        #expect(many >= .milliseconds(100))
    }

    @Test func loadsThatDoNotKeepASchedulePassNoLead() {
        #expect(LoadRunner.startLead(pace: .closedLoop(pipeline: 1), connections: 2000) == .zero)
        #expect(LoadRunner.startLead(pace: .idle, connections: 2000) == .zero)
    }
}
