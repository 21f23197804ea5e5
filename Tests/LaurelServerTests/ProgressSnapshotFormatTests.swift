import Foundation
import LaurelCore
import LaurelStore
import Testing

/// A snapshot as the store keeps it: `{"format": N, "state": ...}`. A state of the current format comes back; one of
/// another format, or text that is not a snapshot, is not used (the session then counts every fact again).
@Suite struct ProgressSnapshotFormatTests {
    @Test func aStateComesBackAndAnotherFormatIsNotUsed() {
        var accumulator = ProgressAccumulator()
        let zone = TimeZone(identifier: "UTC")!
        let at = Date(timeIntervalSince1970: 1_781_546_400.123)
        accumulator.record(LoggedFact(id: "l1", activity: "pushups", amount: 12, at: at, zone: zone), neighbours: [], settings: StreakSettingsHistory())
        let text = ProgressSnapshot.encodedState(of: accumulator)
        #expect(text.hasPrefix(#"{"format":\#(ProgressSnapshot.formatVersion),"state":{"#))
        #expect(ProgressSnapshot.decodeState(text) == accumulator)

        let older = text.replacingOccurrences(of: #"{"format":\#(ProgressSnapshot.formatVersion),"#, with: #"{"format":6,"#)
        #expect(ProgressSnapshot.decodeState(older) == nil)
        #expect(ProgressSnapshot.decodeState(#"{"format":6,"accumulator":{"totalLogs":1}}"#) == nil, "the Codable form of format 6")
        #expect(ProgressSnapshot.decodeState("not json") == nil)
    }
}
