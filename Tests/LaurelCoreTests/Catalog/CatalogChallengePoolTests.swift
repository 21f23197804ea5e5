import LaurelCore
import Testing

/// The challenge pool is catalog data: the shipped catalogs hold the pools of rules.md, and a pool entry that
/// cannot be used is refused naming its field.
@Suite struct CatalogChallengePoolTests {
    typealias F = ChallengeFixture

    /// A small catalog with the given challenge entries (JSON objects).
    static func document(_ challenges: [String]) -> [UInt8] {
        Array(#"""
        {"laurel_catalog": 1, "name": "test", "activities": [{"id": "squats", "name": "Squats", "unit": "reps"}],
         "challenges": [\#(challenges.joined(separator: ", "))]}
        """#.utf8)
    }

    static let logsToday = #"{"kind": "logs_today", "title": "Log {n}", "min": 2, "max": 30, "default": 5, "xp": 20}"#

    static func error(_ challenges: [String]) -> CatalogFileError? {
        CatalogFileErrorTests.error(document(challenges))
    }

    @Test func theShippedPoolsAreThoseOfTheRules() throws {
        #expect(try ShippedCatalogFiles.standfit().challengePool == F.standfitPool)
        #expect(try ShippedCatalogFiles.mindful().challengePool == F.mindfulPool)
    }

    /// A catalog works out what each period's draw shuffles once: the first entry of each kind of the period, in
    /// the kinds' fixed order, whatever order the pool lists them in; choosing from them is choosing from the pool.
    @Test func eachPeriodsCandidatesAreWorkedOutOnceAndChooseAsThePoolDoes() throws {
        let late = ChallengePoolEntry(kind: .logsToday, title: "Log {n} late", min: 1, max: 9, defaultTarget: 4, xp: 5)
        let reordered = Catalog(name: "reordered", activities: F.standfitActivities, challengePool: F.standfitPool.reversed() + [late])
        for catalog in [try ShippedCatalogFiles.standfit(), try ShippedCatalogFiles.mindful(), reordered] {
            for period in ChallengePeriod.allCases {
                let candidates = catalog.challengeCandidates(for: period)
                let kinds = candidates.map(\.kind)
                #expect(kinds == ChallengeKind.allCases.filter { kind in catalog.challengePool.contains { $0.kind == kind && kind.period == period } })
                #expect(candidates == kinds.map { kind in catalog.challengePool.first { $0.kind == kind }! })
                let history = F.history(streak: 1, live: catalog.activities)
                for start in (0..<7).map({ F.monday.adding(days: $0) }) {
                    #expect(
                        ChallengeChooser.choose(
                            user: F.user, period: period, start: start, candidates: candidates, history: history, localHourNow: 5)
                            == F.choose(catalog.challengePool, period: period, start: start, history: history, hour: 5))
                }
            }
        }
        #expect(!reordered.challengeCandidates(for: .daily).contains(late), "a pool offers a kind once: its first entry")
    }

    @Test func theShippedPoolsOfferThreeDailyKindsAndAWeeklyOne() throws {
        for catalog in [try ShippedCatalogFiles.standfit(), try ShippedCatalogFiles.mindful()] {
            let history = F.history(streak: 1, live: catalog.activities)
            #expect(Set(F.choose(catalog.challengePool, history: history, hour: 5).map(\.kind)).count == 3, "\(catalog.name)")
            #expect(F.choose(catalog.challengePool, period: .weekly, history: history).map(\.kind) == [.activeDaysWeek])
        }
    }

    @Test func aValidPoolDecodes() throws {
        let catalog = try CatalogFile.decode(Self.document([
            Self.logsToday,
            #"{"kind": "before_hour", "title": "Early", "hour": 9, "xp": 1000}"#,
            #"{"kind": "minutes_today", "title": "{n} min of {activity}", "activity": "squats", "min": 1, "max": 1, "default": 1, "xp": 1}"#,
        ]))
        #expect(catalog.challengePool == [
            ChallengePoolEntry(kind: .logsToday, title: "Log {n}", min: 2, max: 30, defaultTarget: 5, xp: 20),
            ChallengePoolEntry(kind: .beforeHour, title: "Early", xp: 1000, hour: 9),
            ChallengePoolEntry(kind: .minutesToday, title: "{n} min of {activity}", min: 1, max: 1, defaultTarget: 1, xp: 1, activity: "squats"),
        ])
        #expect(try CatalogFile.decode(Array(#"{"laurel_catalog": 1, "name": "t", "activities": []}"#.utf8)).challengePool.isEmpty)
    }

    @Test(arguments: [
        (#"{"kind": "log_today", "title": "t", "xp": 1}"#, "challenges[1].kind"),
        (#"{"title": "t", "xp": 1}"#, "challenges[1].kind"),
        (#"{"kind": "keep_streak", "title": "", "xp": 1}"#, "challenges[1].title"),
        (#"{"kind": "keep_streak", "xp": 1}"#, "challenges[1].title"),
        (#"{"kind": "keep_streak", "title": "t", "xp": 0}"#, "challenges[1].xp"),
        (#"{"kind": "keep_streak", "title": "t", "xp": 1001}"#, "challenges[1].xp"),
        (#"{"kind": "keep_streak", "title": "t"}"#, "challenges[1].xp"),
        (#"{"kind": "keep_streak", "title": "t", "xp": 1, "min": 1}"#, "challenges[1].min"),
        (#"{"kind": "lesson_today", "title": "t", "xp": 1, "default": 1}"#, "challenges[1].default"),
        (#"{"kind": "distinct_today", "title": "t", "xp": 1, "max": 3, "default": 2}"#, "challenges[1].min"),
        (#"{"kind": "distinct_today", "title": "t", "xp": 1, "min": 2, "max": 3}"#, "challenges[1].default"),
        (#"{"kind": "distinct_today", "title": "t", "xp": 1, "min": 2, "default": 2}"#, "challenges[1].max"),
        (#"{"kind": "distinct_today", "title": "t", "xp": 1, "min": 0, "max": 3, "default": 2}"#, "challenges[1].min"),
        (#"{"kind": "distinct_today", "title": "t", "xp": 1, "min": 4, "max": 3, "default": 3}"#, "challenges[1].min"),
        (#"{"kind": "distinct_today", "title": "t", "xp": 1, "min": 2, "max": 3, "default": 4}"#, "challenges[1].default"),
        (#"{"kind": "distinct_today", "title": "t", "xp": 1, "min": 2, "max": 3, "default": 1}"#, "challenges[1].default"),
        (#"{"kind": "active_days_week", "title": "t", "xp": 1, "min": 2, "max": 8, "default": 3}"#, "challenges[1].max"),
        (#"{"kind": "before_hour", "title": "t", "xp": 1}"#, "challenges[1].hour"),
        (#"{"kind": "before_hour", "title": "t", "xp": 1, "hour": 0}"#, "challenges[1].hour"),
        (#"{"kind": "before_hour", "title": "t", "xp": 1, "hour": 24}"#, "challenges[1].hour"),
        (#"{"kind": "keep_streak", "title": "t", "xp": 1, "hour": 8}"#, "challenges[1].hour"),
        (#"{"kind": "amount_today", "title": "t", "xp": 1, "min": 1, "max": 3, "default": 2, "activity": "squats"}"#, "challenges[1].activity"),
        (#"{"kind": "sessions_today", "title": "t", "xp": 1, "min": 1, "max": 3, "default": 2, "activity": "yoga"}"#, "challenges[1].activity"),
        (#"{"kind": "sessions_today", "title": "{activity}", "xp": 1, "min": 1, "max": 3, "default": 2}"#, "challenges[1].title"),
        (#"{"kind": "logs_today", "title": "t", "xp": 1, "min": 1, "max": 3, "default": 2}"#, "challenges[1].kind"),
        (#""logs_today""#, "challenges[1]"),
    ])
    func aBadEntryNamesItsField(entry: String, field: String) {
        let error = Self.error([Self.logsToday, entry])
        #expect(error?.field == field, "\(entry): \(error?.description ?? "decoded")")
        #expect(error?.reason.isEmpty == false)
    }

    @Test func aKindListedTwiceIsNamed() {
        #expect(Self.error([Self.logsToday, Self.logsToday])?.reason == "logs_today is listed twice")
    }

    @Test func challengesMustBeAnArray() {
        let bytes = Array(#"{"laurel_catalog": 1, "name": "t", "activities": [], "challenges": {}}"#.utf8)
        #expect(CatalogFileErrorTests.error(bytes)?.field == "challenges")
    }
}
