/// The live facts of a span of days summed up per local day, as challenge progress counts them: what a session
/// holds for the current week, so that adding a LOG and asking what it completes take the same time however many
/// logs the week already has (a list of the logs would be copied and walked on every LOG). It agrees with
/// ``ChallengeProgress`` over the facts it was made from.
public struct ChallengeTally: Sendable, Equatable {
    /// One day's figures.
    public struct Day: Sendable, Equatable {
        public var logs = 0
        public var amount = 0
        public var logsByActivity: [String: Int] = [:]
        public var amountByActivity: [String: Int] = [:]
        /// The earliest local hour of the day's logs.
        public var earliestLocalHour: Int?
        public var lessons = 0

        var isActive: Bool { logs > 0 || lessons > 0 }
    }

    public private(set) var days: [LocalDay: Day] = [:]

    public init() {}

    public init(_ facts: ChallengePeriodFacts) {
        for log in facts.logs { add(log) }
        for day in facts.lessonDays { addLesson(on: day) }
    }

    public mutating func add(_ log: LoggedFact) {
        var figures = days[log.day] ?? Day()
        figures.logs += 1
        figures.amount += log.amount
        figures.logsByActivity[log.activity, default: 0] += 1
        figures.amountByActivity[log.activity, default: 0] += log.amount
        figures.earliestLocalHour = min(figures.earliestLocalHour ?? log.localHour, log.localHour)
        days[log.day] = figures
    }

    public mutating func addLesson(on day: LocalDay) {
        days[day, default: Day()].lessons += 1
    }

    /// Progress of `challenge`, capped at its target; days outside the challenge's period are not counted.
    public func progress(of challenge: ChallengeChoice) -> Int {
        let span = challenge.days
        let inPeriod = days.filter { span.contains($0.key) }.values
        let value: Int
        switch challenge.kind {
        case .logsToday, .sessionsToday:
            value = inPeriod.reduce(0) { sum, day in sum + (challenge.activity.map { day.logsByActivity[$0] ?? 0 } ?? day.logs) }
        case .amountToday, .minutesToday:
            value = inPeriod.reduce(0) { sum, day in sum + (challenge.activity.map { day.amountByActivity[$0] ?? 0 } ?? day.amount) }
        case .distinctToday:
            value = Set(inPeriod.flatMap(\.logsByActivity.keys)).count
        case .beforeHour:
            value = inPeriod.contains { ($0.earliestLocalHour ?? Int.max) < (challenge.hour ?? 0) } ? 1 : 0
        case .keepStreak:
            value = inPeriod.contains(where: \.isActive) ? 1 : 0
        case .lessonToday:
            value = inPeriod.contains { $0.lessons > 0 } ? 1 : 0
        case .activeDaysWeek:
            value = inPeriod.count(where: \.isActive)
        }
        return min(value, challenge.target)
    }

    /// Progress of `challenge` with one more log (nothing is changed here).
    public func progress(of challenge: ChallengeChoice, adding log: LoggedFact) -> Int {
        var tally = self
        tally.add(log)
        return tally.progress(of: challenge)
    }

    /// The active days (a live log or a lesson completion) before `day`.
    public func activeDays(before day: LocalDay) -> Int {
        days.count { $0.key < day && $0.value.isActive }
    }
}
