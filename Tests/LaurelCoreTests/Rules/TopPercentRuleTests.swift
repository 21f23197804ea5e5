import Foundation
import LaurelCore
import Testing

/// Comparative goals (rules.md, "Comparative achievements"): which weeks have ended everywhere, the rank a board of a
/// given size lets through, and how the evaluator reads the standings (once, then again when the weeks move on or
/// the standings grow old) and unlocks at the evaluation, dated then.
@Suite struct TopPercentRuleTests {
    static let quarter = TopPercentGoal(board: .logs, percent: 25)
    /// Thursday 2026-11-26 18:00 UTC, in ISO week 2026-W48.
    static let thursday = Date(timeIntervalSince1970: 1_795_716_000)

    static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func aWeekEndsEverywhereAtNoonUTCOnTheMondayAfter() {
        #expect(EndedWeeks.end(of: ISOWeek("2026-W47")!) == Self.instant("2026-11-23T12:00:00Z"))
        #expect(EndedWeeks.latest(at: Self.instant("2026-11-23T11:59:59Z")).map(\.description) == ["2026-W46", "2026-W45", "2026-W44", "2026-W43"])
        #expect(EndedWeeks.latest(at: Self.instant("2026-11-23T12:00:00Z")).map(\.description) == ["2026-W47", "2026-W46", "2026-W45", "2026-W44"])
        #expect(EndedWeeks.latest(at: Self.thursday).first?.description == "2026-W47")
        // Across New Year: 2026-12-28 is in 2026-W53, and 2027-01-04 starts 2027-W01.
        #expect(EndedWeeks.latest(at: Self.instant("2027-01-04T12:00:00Z")).first?.description == "2026-W53")
        #expect(EndedWeeks.latest(at: Self.instant("2027-01-11T12:00:00Z")).first?.description == "2027-W01")
    }

    @Test func theLastRankIsTheCeilingOfTheShareWithTwentyUsersAtLeast() {
        #expect(TopPercentRule.lastRank(total: 20, percent: 25) == 5)
        #expect(TopPercentRule.lastRank(total: 21, percent: 25) == 6)
        #expect(TopPercentRule.lastRank(total: 1_000_000, percent: 25) == 250_000)
        let week = ISOWeek("2026-W47")!
        func standing(_ rank: Int?, of total: Int, on board: LeaderboardBoard = .logs) -> WeekStanding {
            WeekStanding(week: week, board: board, rank: rank, total: total)
        }
        #expect(TopPercentRule.isMet(Self.quarter, by: standing(5, of: 20)))
        #expect(!TopPercentRule.isMet(Self.quarter, by: standing(6, of: 20)))
        #expect(TopPercentRule.isMet(Self.quarter, by: standing(6, of: 21)))
        #expect(!TopPercentRule.isMet(Self.quarter, by: standing(1, of: 19)), "fewer than 20 users make no board")
        #expect(!TopPercentRule.isMet(Self.quarter, by: standing(nil, of: 100)), "not among the ranks kept")
        #expect(!TopPercentRule.isMet(Self.quarter, by: standing(1, of: 100, on: .xp)), "another board")
        #expect(TopPercentRule.ranksToKeep(total: 19, goals: [Self.quarter]) == 0)
        #expect(TopPercentRule.ranksToKeep(total: 40, goals: [Self.quarter, TopPercentGoal(board: .logs, percent: 50)]) == 20)
    }

    static func standingsRead(by user: EvaluatedUser) -> Int {
        user.piecesRead.filter { if case .weekStandings = $0 { true } else { false } }.count
    }

    @Test func anEndedWeekInTheTopQuarterUnlocksAtTheNextEvaluationDatedThen() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.thursday)
        let weeks = EndedWeeks.latest(at: Self.thursday)
        user.weekStandings = weeks.map { WeekStanding(week: $0, board: .logs, rank: 11, total: 40) }
        try user.log("pushups")
        #expect(user.piecesRead.contains(.weekStandings(weeks: EndedWeeks.latest(at: Self.thursday), boards: [.logs])))
        #expect(user.storedUnlocks["top_quarter"] == nil)
        let explained = AchievementExplainer(progress: user.progress, catalog: user.rules.catalog, now: user.now)
            .explain(user.progress.achievements.entry(id: "top_quarter")!)
        #expect(explained.blocked == .notThisPeriod && explained.remaining == 1 && explained.deadline == nil)

        // A ranking made again (a backfill moved the week before last): 8th of 40 is within the quarter (10).
        user.weekStandings[1].rank = 8
        user.now = Self.thursday.addingTimeInterval(600)
        try user.log("pushups")
        #expect(user.storedUnlocks["top_quarter"] == nil, "read ten minutes ago with every week ranked: not read again yet")

        user.now = Self.thursday.addingTimeInterval(3_600)
        let decision = try user.log("pushups")
        #expect(user.storedUnlocks["top_quarter"] == user.now, "unlocked at this evaluation, dated then")
        #expect(decision.events.contains(.unlocked("top_quarter")))
        let unlocked = AchievementExplainer(progress: user.progress, catalog: user.rules.catalog, now: user.now)
            .explain(user.progress.achievements.entry(id: "top_quarter")!)
        #expect(unlocked.blocked == nil && unlocked.remaining == 0)

        // Unlocked once: nothing asks for standings again.
        let reads = Self.standingsRead(by: user)
        user.now = Self.thursday.addingTimeInterval(30 * 86_400)
        try user.log("pushups")
        #expect(Self.standingsRead(by: user) == reads)
    }

    @Test func standingsAreReadAgainWhenTheWeeksMoveOnOrAWeekWasNotRankedYet() throws {
        let monday = Self.instant("2026-11-23T11:00:00Z")
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: monday)
        let rankedWeeks = ["2026-W46", "2026-W45", "2026-W44", "2026-W43"].map { WeekStanding(week: ISOWeek($0)!, board: .logs, rank: 30, total: 40) }
        user.weekStandings = rankedWeeks
        try user.log("pushups")
        let asked = Self.standingsRead
        #expect(asked(user) == 1)
        user.now = monday.addingTimeInterval(1_800)
        try user.log("pushups")
        #expect(asked(user) == 1, "the same weeks, all ranked, read half an hour ago")

        // Noon: 2026-W47 has ended everywhere, and is not ranked yet.
        user.now = monday.addingTimeInterval(3_600)
        try user.log("pushups")
        #expect(asked(user) == 2)
        user.now = monday.addingTimeInterval(3_600 + 60)
        try user.log("pushups")
        #expect(asked(user) == 2, "an unranked week is asked again after a tenth of the refresh, not at every evaluation")
        user.weekStandings = rankedWeeks + [WeekStanding(week: ISOWeek("2026-W47")!, board: .logs, rank: 2, total: 40)]
        user.now = monday.addingTimeInterval(3_600 + 360)
        try user.log("pushups")
        #expect(asked(user) == 3)
        #expect(user.storedUnlocks["top_quarter"] == user.now)
    }

    @Test func aCatalogReadsTopPercentRules() throws {
        let file = """
            {"laurel_catalog": 1, "name": "t", "activities": [{"id": "pushups", "name": "Pushups", "unit": "reps"}],
             "achievements": [{"id": "top", "name": "Top", "category": "c", "tier": "gold",
                               "rule": {"kind": "top_percent", "board": "activity:pushups", "percent": 10}, "target": 1}]}
            """
        let catalog = try CatalogFile.decode(Array(file.utf8))
        #expect(catalog.achievements.first?.rule == .topPercent(TopPercentGoal(board: .activity("pushups"), percent: 10)))
        #expect(throws: CatalogFileError.self) {
            try CatalogFile.decode(Array(file.replacingOccurrences(of: "\"percent\": 10", with: "\"percent\": 0").utf8))
        }
        #expect(throws: CatalogFileError.self) {
            try CatalogFile.decode(Array(file.replacingOccurrences(of: "activity:pushups", with: "activity:squats").utf8))
        }
    }
}
