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
        min(count(challenge), challenge.target)
    }

    /// Progress of `challenge` with one more log, counted without copying the tally (a session asks this of every
    /// open challenge on every LOG).
    public func progress(of challenge: ChallengeChoice, adding log: LoggedFact) -> Int {
        let base = count(challenge)
        guard challenge.days.contains(log.day) else { return min(base, challenge.target) }
        let counts = challenge.activity.map { $0 == log.activity } ?? true
        let day = days[log.day]
        let value: Int
        switch challenge.kind {
        case .logsToday, .sessionsToday: value = base + (counts ? 1 : 0)
        case .amountToday, .minutesToday: value = base + (counts ? log.amount : 0)
        case .distinctToday: value = base + (activities(in: challenge.days).contains(log.activity) ? 0 : 1)
        case .beforeHour: value = log.localHour < (challenge.hour ?? 0) ? 1 : base
        case .keepStreak: value = 1
        case .lessonToday: value = base
        case .activeDaysWeek: value = base + (day?.isActive == true ? 0 : 1)
        }
        return min(value, challenge.target)
    }

    /// The uncapped count of `challenge` over the days of its period.
    private func count(_ challenge: ChallengeChoice) -> Int {
        let span = challenge.days
        var value = 0
        switch challenge.kind {
        case .distinctToday:
            return activities(in: span).count
        default:
            break
        }
        for (day, figures) in days where span.contains(day) {
            switch challenge.kind {
            case .logsToday, .sessionsToday: value += challenge.activity.map { figures.logsByActivity[$0] ?? 0 } ?? figures.logs
            case .amountToday, .minutesToday: value += challenge.activity.map { figures.amountByActivity[$0] ?? 0 } ?? figures.amount
            case .beforeHour: if (figures.earliestLocalHour ?? Int.max) < (challenge.hour ?? 0) { value = 1 }
            case .keepStreak: if figures.isActive { value = 1 }
            case .lessonToday: if figures.lessons > 0 { value = 1 }
            case .activeDaysWeek: if figures.isActive { value += 1 }
            case .distinctToday: break
            }
        }
        return value
    }

    /// The activities logged on the days of `span`.
    private func activities(in span: ClosedRange<LocalDay>) -> Set<String> {
        var activities: Set<String> = []
        for (day, figures) in days where span.contains(day) { activities.formUnion(figures.logsByActivity.keys) }
        return activities
    }

    /// The active days (a live log or a lesson completion) before `day`.
    public func activeDays(before day: LocalDay) -> Int {
        days.count { $0.key < day && $0.value.isActive }
    }
}
