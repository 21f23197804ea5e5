import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// One local day's challenges and its ISO week's, with the live facts of that week: what a session evaluates a
/// LOG of that day against, without reading anything. Progress is always counted from `facts`, so it agrees with
/// a count over the stored facts by construction.
struct ChallengeBoard: Sendable {
    let day: LocalDay
    /// The day's challenges, then the week's.
    var challenges: [StoredChallenge]
    /// Live logs and lesson completions of the day's ISO week.
    var facts: ChallengePeriodFacts

    /// The board of `day`, or nil when the day's or the week's challenges have not been chosen yet (the catalog's
    /// pool offers some, but nobody needed them so far).
    static func load(day: LocalDay, pool: [ChallengePoolEntry], records: any UserRecords) throws -> ChallengeBoard? {
        let challenges = try storedChallenges(day: day, records: records)
        for period in ChallengePeriod.allCases where pool.contains(where: { $0.kind.period == period }) {
            guard challenges.contains(where: { $0.choice.period == period }) else { return nil }
        }
        return try ChallengeBoard(day: day, challenges: challenges, records: records)
    }

    /// What is stored for `day` and its week, chosen or not (a past day that never had challenges has none).
    static func stored(day: LocalDay, records: any UserRecords) throws -> ChallengeBoard {
        try ChallengeBoard(day: day, challenges: storedChallenges(day: day, records: records), records: records)
    }

    private static func storedChallenges(day: LocalDay, records: any UserRecords) throws -> [StoredChallenge] {
        try ChallengePeriod.allCases.flatMap { period in try records.challenges(period, startingOn: period.start(of: day)) }
    }

    private init(day: LocalDay, challenges: [StoredChallenge], records: any UserRecords) throws {
        let week = Self.week(of: day)
        self.day = day
        self.challenges = challenges
        self.facts = try records.challengeFacts(from: week.lowerBound, through: week.upperBound)
    }

    func progress(of challenge: ChallengeChoice) -> Int {
        ChallengeProgress.progress(of: challenge, in: facts)
    }

    /// The challenges not completed yet that `log` would complete.
    func completed(adding log: LoggedFact) -> [ChallengeChoice] {
        challenges.filter { $0.completedAt == nil }.map(\.choice).filter {
            ChallengeProgress.progress(of: $0, in: facts, adding: log) >= $0.target
        }
    }

    /// Counts a stored log of the board's week.
    mutating func record(_ log: LoggedFact) {
        if Self.week(of: day).contains(log.day) { facts.logs.append(log) }
    }

    /// The days of the ISO week of `day`.
    static func week(of day: LocalDay) -> ClosedRange<LocalDay> {
        ChallengePeriod.weekly.days(from: ChallengePeriod.weekly.start(of: day))
    }

    /// The CHALLENGE objects of one period's challenges.
    func rendered(_ period: ChallengePeriod) -> [JSONObject] {
        challenges.filter { $0.choice.period == period }.map { ChallengeRendering.object($0, progress: progress(of: $0.choice)) }
    }
}
