import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore
import Testing

@testable import LaurelServer

/// The engine against in-memory records: for random histories (backfills, deletions, rest-day changes), what
/// incremental evaluation keeps equals a recomputation from the stored facts, whether the state between
/// evaluations comes from the session's memory or from the stored JSON; and the session's memory path decides a
/// LOG exactly as the transactional path does.
@Suite struct EngineAgreementTests {
    /// Without challenges: a period's challenges are fixed when first needed, so what they pay depends on the order
    /// in which facts arrive, which these tests vary on purpose (ChallengeRecomputationTests covers challenges).
    static let catalog = {
        var catalog = try! ShippedCatalogs.load("standfit")
        catalog.challengePool = []
        return catalog
    }()
    static let now = Date(timeIntervalSince1970: 1_781_546_400)  // 2026-06-15T18:00:00Z
    static let activities = ["pushups", "squats", "lunges", "plank"]

    /// A user's history, played LOG by LOG (and deletion by deletion) through the engine.
    struct History {
        var records = InMemoryUserRecords(now: EngineAgreementTests.now)
        var engine: ProgressEngine
        var random: SeededRandom
        var logCount = 0
        var deletions = 0

        init(seed: UInt64, cached: Bool) {
            random = SeededRandom(seed: seed)
            let plain = ProgressEngine(catalog: EngineAgreementTests.catalog)
            engine = cached ? plain.caching(in: EngineStateCache()) : plain
        }

        mutating func randomLog() -> (StoredLog, LoggedFact) {
            logCount += 1
            let daysAgo = random.next(upTo: 40)
            let at = EngineAgreementTests.now.addingTimeInterval(-Double(daysAgo * 86_400 + random.next(upTo: 12 * 3600)))
            let local = LocalDateTime(of: at, in: .gmt)
            let activity = EngineAgreementTests.activities[random.next(upTo: EngineAgreementTests.activities.count)]
            let amount = 1 + random.next(upTo: 60)
            let id = "log-\(logCount)"
            let log = StoredLog(id: id, activityID: activity, amount: amount, at: at, day: local.day, note: nil, requestedAt: at, localHour: local.hour)
            return (log, LoggedFact(id: id, activity: activity, amount: amount, at: at, day: local.day, localHour: local.hour))
        }

        /// One step: mostly a new log, sometimes a deletion or a rest-day change.
        mutating func step(allowDeletions: Bool) throws {
            records.beginWrite()
            let roll = random.next(upTo: 100)
            if allowDeletions, roll < 10, let victim = try records.logs(LogQuery(limit: 1000)).randomElement(using: &random) {
                try records.markLogDeleted(id: victim.id)
                deletions += 1
                _ = try engine.evaluate(.factsRemoved, in: records, now: EngineAgreementTests.now)
            } else if roll < 15 {
                let restDay = random.next(upTo: 8)
                try records.appendSettings(UserSettings(timeZone: "UTC", restDay: restDay == 7 ? nil : Weekday(rawValue: restDay + 1)))
                let today = LocalDay(of: EngineAgreementTests.now, in: .gmt)
                _ = try engine.evaluate(.settingsChanged(effective: today), in: records, now: EngineAgreementTests.now)
            } else {
                let (log, fact) = randomLog()
                try records.insertLog(log)
                _ = try engine.evaluate(.newLog(fact), in: records, now: EngineAgreementTests.now)
            }
        }
    }

    /// What a recomputation from the stored facts says now.
    static func recomputed(_ records: InMemoryUserRecords) throws -> (measures: ProgressMeasures, streak: StreakState) {
        let context = try EvaluationContext(records: records, now: now, engine: ProgressEngine(catalog: catalog))
        let accumulator = ProgressAccumulator(rebuildingFrom: try records.allFacts(), settings: context.history, speedWindows: context.speedWindows)
        return (accumulator.measures, accumulator.streak(today: context.today, settings: context.history))
    }

    @Test(arguments: 0..<24)
    func incrementalEvaluationAgreesWithARecomputation(seed: Int) throws {
        var history = History(seed: UInt64(seed), cached: seed % 2 == 0)
        for _ in 0..<(20 + seed * 3) { try history.step(allowDeletions: true) }
        let snapshot = try history.engine.snapshot(in: history.records, now: Self.now)
        let reference = try Self.recomputed(history.records)
        #expect(snapshot.measures == reference.measures, "seed \(seed)")
        #expect(snapshot.streak == reference.streak, "seed \(seed)")
        #expect(try history.records.progress().currentStreak == reference.streak.current, "seed \(seed)")
    }

    /// Without deletions nothing unlocked can lose its ground: the unlocks and XP of the incremental run are those
    /// of one evaluation of all the facts at once.
    @Test(arguments: 0..<12)
    func withoutDeletionsUnlocksAndXPAreThoseOfOneEvaluation(seed: Int) throws {
        var history = History(seed: UInt64(100 + seed), cached: seed % 2 == 1)
        for _ in 0..<(30 + seed * 5) { try history.step(allowDeletions: false) }

        let once = InMemoryUserRecords(now: Self.now)
        for log in try history.records.logs(LogQuery(limit: 10_000)).reversed() { try once.insertLog(log) }
        for change in try history.records.streakSettingsHistory().restDayChanges.dropFirst() {
            try once.appendSettings(UserSettings(timeZone: "UTC", restDay: change.value))
        }
        once.beginWrite()
        _ = try ProgressEngine(catalog: Self.catalog).evaluate(.catchUp, in: once, now: Self.now)
        #expect(Set(try history.records.unlocks().keys) == Set(try once.unlocks().keys), "seed \(seed)")
        #expect(try history.records.progress().xp == (try once.progress().xp), "seed \(seed)")
    }

    /// The session's memory path (used for the common LOG) and the transactional path decide the same LOG alike.
    @Test(arguments: 0..<12)
    func theMemoryPathDecidesALogAsTheTransactionDoes(seed: Int) throws {
        var history = History(seed: UInt64(200 + seed), cached: false)
        for _ in 0..<(10 + seed * 4) { try history.step(allowDeletions: true) }
        let (log, fact) = history.randomLog()

        let progress = try SessionProgress(records: history.records, engine: history.engine, now: Self.now)
        let decision = progress.decide(recording: fact, now: Self.now)

        history.records.beginWrite()
        try history.records.insertLog(log)
        let evaluation = try history.engine.evaluate(.newLog(fact), in: history.records, now: Self.now)
        #expect(decision.unlocks.map(\.id) == evaluation.unlocked.compactMap { $0["id"]?.stringValue }, "seed \(seed)")
        #expect(decision.figures.xp == evaluation.xp, "seed \(seed)")
        #expect(decision.figures.level == evaluation.level, "seed \(seed)")
        #expect(decision.state.streak == (try Self.recomputed(history.records).streak), "seed \(seed)")
    }
}

/// A small deterministic generator (SplitMix64), so a failing seed can be replayed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed &+ 0x9E37_79B9_7F4A_7C15
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(upTo bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
