import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore
import Testing

@testable import LaurelServer

/// Challenge XP is XP: it counts in the figures the engine stores, and when it is what takes the user to a new
/// level, the `LEVEL` push follows the `CHALLENGE` push in the same evaluation.
@Suite struct ChallengeLevelTests {
    static let now = Date(timeIntervalSince1970: 1_781_546_400)  // 2026-06-15T18:00:00Z, a Monday

    /// A catalog with one activity, no achievements, and one daily challenge worth enough XP to reach level 2.
    static let catalog = Catalog(
        name: "challenge-level", activities: [Activity(id: "pushups", name: "Pushups", unit: .reps, icon: nil, custom: false)],
        challengePool: [
            ChallengePoolEntry(kind: .logsToday, title: "Log {n} exercises today", min: 2, max: 30, defaultTarget: 2, xp: 80),
        ])

    @Test func challengeXPThatReachesALevelIsPushedAsALevel() throws {
        let records = InMemoryUserRecords(now: Self.now)
        let engine = ProgressEngine(catalog: Self.catalog)
        var secondPushes: [PushKind] = []
        for index in 1...2 {
            records.beginWrite()
            let local = LocalDateTime(of: Self.now, in: .gmt)
            let log = StoredLog(
                id: "log-\(index)", activityID: "pushups", amount: 1, at: Self.now, day: local.day, note: nil, requestedAt: nil,
                localHour: local.hour)
            try records.insertLog(log)
            let fact = LoggedFact(id: log.id, activity: "pushups", amount: 1, at: Self.now, day: local.day, localHour: local.hour)
            let evaluation = try engine.evaluate(.newLog(fact), in: records, now: Self.now)
            if index == 1 { #expect(evaluation.xp == 15) }
            if index == 2 {
                secondPushes = evaluation.pushes.map(\.kind)
                // 2 logs, 1 active day, and the challenge's 80: level 2 (100 XP).
                #expect(evaluation.xp == 20 + 5 + 80)
                #expect(evaluation.level == 2)
            }
        }
        #expect(secondPushes == [.challenge, .level])
        #expect(try records.challengeXP() == 80)
        #expect(try records.progress().xp == 105)
    }
}
