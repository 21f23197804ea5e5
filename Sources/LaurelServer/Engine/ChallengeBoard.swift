import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// One local day's challenges and its ISO week's, with the live facts of that week summed up per day: what a
/// session evaluates a LOG of that day against, without reading anything. Progress is always counted from `tally`,
/// which agrees with a count over the stored facts (`ChallengeProgress`). A period the catalog offers challenges for but nobody needed yet
/// is `unchosen`, with the history its choice needs, so that the first need chooses in memory and only stores.
struct ChallengeBoard: Sendable {
    let day: LocalDay
    /// The day's challenges, then the week's.
    var challenges: [StoredChallenge]
    /// Live logs and lesson completions of the day's ISO week, per day.
    var tally: ChallengeTally
    /// Periods of the pool with nothing stored yet, in period order.
    var unchosen: [ChallengePeriod] = []
    /// The history before `day`, while some period is unchosen (without the live activities, which the session
    /// holds anyway: every idle session keeps this).
    var history: ChallengeHistory?

    /// The board of `day` as stored, with the history to choose the periods of `pool` that have nothing stored.
    static func load(day: LocalDay, pool: [ChallengePoolEntry], records: any UserRecords) throws -> ChallengeBoard {
        var board = try stored(day: day, records: records)
        board.unchosen = ChallengePeriod.allCases.filter { period in
            pool.contains { $0.kind.period == period } && !board.challenges.contains { $0.choice.period == period }
        }
        if !board.unchosen.isEmpty {
            board.history = try ChallengeSelection.history(before: day, liveActivities: [], records: records)
        }
        return board
    }

    /// What is stored for `day` and its week (a past day that never had challenges has none).
    static func stored(day: LocalDay, records: any UserRecords) throws -> ChallengeBoard {
        let challenges = try ChallengePeriod.allCases.flatMap { period in try records.challenges(period, startingOn: period.start(of: day)) }
        return ChallengeBoard(day: day, challenges: challenges, tally: ChallengeTally(try weekFacts(of: day, records: records)))
    }

    init(day: LocalDay, challenges: [StoredChallenge], tally: ChallengeTally) {
        self.day = day
        self.challenges = challenges
        self.tally = tally
    }

    /// The live facts of the ISO week of `day`.
    static func weekFacts(of day: LocalDay, records: any UserRecords) throws -> ChallengePeriodFacts {
        let week = Self.week(of: day)
        return try records.challengeFacts(from: week.lowerBound, through: week.upperBound)
    }

    /// What the chooser picks for the unchosen periods now (nothing is stored or changed here).
    func choices(
        user: UserID, localHour: Int, currentStreak: Int, liveActivities: [Activity], pool: [ChallengePoolEntry]
    ) -> [ChallengeChoice] {
        guard var history else { return [] }
        history.liveActivities = liveActivities
        return unchosen.flatMap { period in
            ChallengeSelection.choose(
                period, user: user, today: day, localHour: localHour, currentStreak: currentStreak, history: history, weekTally: tally,
                pool: pool)
        }
    }

    /// Takes on the stored challenges of the periods that were unchosen (chosen here or by someone else first); a
    /// period with none stays without (the user could do none of its kinds).
    mutating func takeChosen(_ stored: [StoredChallenge]) {
        add(stored)
        unchosen = []
        history = nil
    }

    /// Takes on what the store holds for the board's day and week (a catch-up tells it): challenges chosen elsewhere
    /// for a period that is unchosen here, and completions.
    mutating func takeStored(_ stored: [StoredChallenge]) {
        let chosenElsewhere = stored.filter { unchosen.contains($0.choice.period) && $0.choice.periodStart == $0.choice.period.start(of: day) }
        add(chosenElsewhere)
        unchosen.removeAll { period in chosenElsewhere.contains { $0.choice.period == period } }
        if unchosen.isEmpty { history = nil }
        complete(Dictionary(stored.compactMap { row in row.completedAt.map { (row.choice.id, $0) } }, uniquingKeysWith: min))
    }

    /// Adds stored challenges, keeping the day's before the week's, by slot.
    private mutating func add(_ stored: [StoredChallenge]) {
        let order = ChallengePeriod.allCases
        challenges = (challenges + stored).sorted {
            (order.firstIndex(of: $0.choice.period) ?? 0, $0.choice.slot) < (order.firstIndex(of: $1.choice.period) ?? 0, $1.choice.slot)
        }
    }

    func progress(of challenge: ChallengeChoice) -> Int {
        tally.progress(of: challenge)
    }

    /// The challenges not completed yet that `log` would complete.
    func completed(adding log: LoggedFact) -> [ChallengeChoice] {
        challenges.filter { $0.completedAt == nil }.map(\.choice).filter {
            tally.progress(of: $0, adding: log) >= $0.target
        }
    }

    /// Whether a challenge not completed has reached its target already (chosen after the facts that reach it,
    /// which only a writing unit of work completes).
    var hasReachedOpenChallenge: Bool {
        challenges.contains { $0.completedAt == nil && progress(of: $0.choice) >= $0.choice.target }
    }

    /// Marks completed the board's challenges named in `moments` (by `ChallengeChoice.id`) at those moments.
    mutating func complete(_ moments: [String: Date]) {
        for index in challenges.indices where challenges[index].completedAt == nil {
            if let at = moments[challenges[index].choice.id] { challenges[index].completedAt = at }
        }
    }

    /// Counts a stored log of the board's week.
    mutating func record(_ log: LoggedFact) {
        if Self.week(of: day).contains(log.day) { tally.add(log) }
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
