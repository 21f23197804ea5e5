import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore
import Testing

@testable import LaurelServer

/// The XP rule for template unlocks (50 for each unlocked achievement still listed: the catalog's and the current
/// tiers of the user's templates, switched-off ones included) holds on every path that computes XP: the evaluation
/// in a transaction, the session's memory path for a LOG, and the session's check at AUTH.
@Suite struct TemplateUnlockXPEngineTests {
    static let now = EngineAgreementTests.now

    /// A log of `amount` of `activity` at noon the day before `now`, stored and evaluated in a transaction.
    static func logged(_ amount: Int, of activity: String, id: String, in records: InMemoryUserRecords, engine: ProgressEngine) throws -> Evaluation {
        let at = now.addingTimeInterval(-86_400 - 6 * 3600)
        let local = LocalDateTime(of: at, in: .gmt)
        records.beginWrite()
        try records.insertLog(StoredLog(
            id: id, activityID: activity, amount: amount, at: at, day: local.day, note: nil, requestedAt: at, localHour: local.hour))
        return try engine.evaluate(
            .newLog(LoggedFact(id: id, activity: activity, amount: amount, at: at, day: local.day, localHour: local.hour)), in: records, now: now)
    }

    static func retiered(_ template: AchievementTemplate, _ targets: [Int], active: Bool = true,
                         in records: InMemoryUserRecords, engine: ProgressEngine) throws -> Evaluation {
        var changed = template
        changed.tiers = targets.enumerated().map { TemplateTier(tier: ["bronze", "silver", "gold"][$0.offset], target: $0.element) }
        (changed.active, changed.inactiveReason) = active ? (true, nil) : (false, AchievementTemplate.deactivated)
        records.beginWrite()
        _ = try records.updateTemplate(changed)
        return try engine.evaluate(.catchUp, in: records, now: now)
    }

    @Test func unlocksOfTiersNoLongerListedAreWorthNothing() throws {
        let records = InMemoryUserRecords(now: Self.now)
        let engine = ProgressEngine(catalog: EngineAgreementTests.catalog)
        records.beginWrite()
        let rowing = try records.insertCustomActivity(name: "Rowing", unit: .reps, icon: nil)
        let template = try records.insertTemplate(
            name: "Rowing Volume", activityID: rowing.id, type: .volume, tiers: [TemplateTier(tier: "bronze", target: 50)])
        // 10 for the log, 5 for the day, 50 each for first_exercise and the tier.
        #expect(try Self.logged(70, of: rowing.id, id: "row-1", in: records, engine: engine).xp == 115)

        // Back and forth between two targets: each unlocks once, only the one listed counts.
        #expect(try Self.retiered(template, [60], in: records, engine: engine).unlocked.count == 1)
        #expect(try records.progress().xp == 115)
        #expect(try Self.retiered(template, [50], in: records, engine: engine).unlocked.isEmpty)
        #expect(try records.progress().xp == 115)
        #expect(try records.unlocks().count == 3, "first_exercise and both tiers' unlocks are kept")

        // Switched off, its unlock still counts.
        #expect(try Self.retiered(template, [50], active: false, in: records, engine: engine).xp == 115)

        // The session's memory path decides a LOG with the same rule, and sees nothing to catch up at AUTH.
        let session = try SessionProgress(records: records, engine: engine, now: Self.now)
        #expect(!session.changesOnCatchUp(now: Self.now))
        let next = LoggedFact(id: "row-2", activity: rowing.id, amount: 1, at: Self.now, zone: .gmt)
        #expect(session.decide(recording: next, now: Self.now).xp == 115 + 10 + 5)

        // A removed tier counts no more, in the transaction and in the session alike.
        #expect(try Self.retiered(template, [100], in: records, engine: engine).xp == 65)
        #expect(try SessionProgress(records: records, engine: engine, now: Self.now).decide(recording: next, now: Self.now).xp == 65 + 15)
    }
}
