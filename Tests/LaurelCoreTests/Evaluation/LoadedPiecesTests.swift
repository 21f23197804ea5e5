import Foundation
import LaurelCore
import Testing

/// The pieces read for a decision hold their tables by reference (most decisions read none), and must still behave as
/// a value: a copy never sees a change made to another, whether the change sets a table or merges pieces read later.
@Suite struct LoadedPiecesTests {
    static let at = Date(timeIntervalSince1970: 1_781_546_400)  // 2026-06-15T18:00:00Z
    static let log = StoredLog(id: "a", activityID: "pushups", amount: 5, at: at, day: LocalDay("2026-06-15")!, localHour: 18, note: nil)

    @Test func noneReadIsEmpty() {
        let pieces = LoadedPieces()
        #expect(pieces.storedFacts.isEmpty && pieces.logs.isEmpty && pieces.neighbours.isEmpty && pieces.activityLogs.isEmpty)
        #expect(pieces.logsWithin.isEmpty && pieces.allFacts == nil && pieces.weekStandings == nil)
    }

    @Test func aCopyKeepsWhatItHadWhenTheOtherChanges() {
        var first = LoadedPieces()
        first.logs["a"] = .some(Self.log)
        let copy = first
        first.logs["b"] = .some(nil)
        first.neighbours["pushups"] = []
        #expect(copy.logs.count == 1 && copy.logs["a"] == .some(Self.log))
        #expect(copy.neighbours.isEmpty)
        #expect(first.logs.count == 2 && first.neighbours["pushups"] == [])
    }

    @Test func mergingIntoACopyLeavesTheOriginal() {
        var original = LoadedPieces()
        original.logs["a"] = .some(Self.log)
        var later = LoadedPieces()
        later.logs["a"] = .some(nil)
        later.activityLogs["squats"] = []
        var merged = original
        merged.merge(later)
        #expect(merged.logs["a"] == .some(nil), "what was read later wins")
        #expect(merged.activityLogs["squats"] == [])
        #expect(original.logs["a"] == .some(Self.log))
        #expect(original.activityLogs.isEmpty)
        #expect(later.logs.count == 1 && later.activityLogs.count == 1)
    }

    @Test func mergingNothingReadChangesNothing() {
        var pieces = LoadedPieces()
        pieces.storedFacts[.init(.log, "x")] = .some(nil)
        pieces.merge(LoadedPieces())
        #expect(pieces.storedFacts.count == 1)
    }
}
