import Foundation
import LaurelCore
import Testing

/// Whether a decision stores anything: each kind of row counts on its own (the route commits nothing for empty
/// writes, so a kind missed here would be a write lost).
@Suite struct ProgressWritesTests {
    @Test func writesWithAnyOneKindOfRowAreNotEmpty() throws {
        #expect(ProgressWrites().isEmpty)
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: EvaluatorFactTests.now)
        let logged = try user.log("pushups", 5)
        let fact = try #require(logged.writes.fact)
        let today = LocalDay(of: EvaluatorFactTests.now, in: .gmt)
        let kinds: [(String, (inout ProgressWrites) -> Void)] = [
            ("fact", { $0.fact = fact }),
            ("deleted log", { $0.deletedLog = "log-1" }),
            ("settings", { $0.settings = (UserSettings(timeZone: "UTC"), effective: today) }),
            ("activity", { $0.activity = EvaluatorFactTests.pushups }),
            ("deleted template", { $0.deletedTemplates = ["t-1"] }),
            ("deleted unlocks", { $0.deletedUnlockPrefixes = ["t-1:"] }),
            ("unlock", { $0.unlocks = ["first_log"] }),
            ("figures", { $0.figures = ProgressFigures() }),
            ("allowance", { $0.allowance = LogAllowance() }),
        ]
        for (kind, add) in kinds {
            var writes = ProgressWrites()
            add(&writes)
            #expect(!writes.isEmpty, "writes with only a \(kind) are not empty")
        }
        #expect(!logged.writes.isEmpty)
    }
}
