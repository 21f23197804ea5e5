/// One local day's live facts summed up, as the rules of challenges count them.
public struct DayFigures: Sendable, Equatable {
    /// Live logs of all activities.
    public var logs = 0
    /// Their summed `amount`.
    public var amount = 0
    /// Distinct activities logged.
    public var distinctActivities = 0
    /// The earliest local hour a log fell in.
    public var earliestLocalHour: Int?
    /// Lesson completions, repeats included.
    public var lessons = 0

    public init() {}

    /// A day with a live log or a lesson completion (rules.md, "Streaks").
    public var isActive: Bool { logs > 0 || lessons > 0 }
}

extension ProgressAccumulator {
    /// The figures of `day` (all zero when nothing happened that day).
    public func figures(on day: LocalDay) -> DayFigures {
        var figures = DayFigures()
        guard let tally = days[day] else { return figures }
        figures.logs = tally.logs
        figures.amount = tally.amount
        figures.distinctActivities = tally.activities
        figures.earliestLocalHour = tally.earliestLocalHour
        figures.lessons = tally.lessons
        return figures
    }

    /// One activity's live logs and summed amount on `day`.
    public func figures(of activity: String, on day: LocalDay) -> (logs: Int, amount: Int) {
        guard let figures = activities[activity]?.daily[day] else { return (0, 0) }
        return (figures.logs, figures.amount)
    }

    /// The activities logged on any day of `span`.
    public func activitiesLogged(on span: ClosedRange<LocalDay>) -> Set<String> {
        var logged: Set<String> = []
        for (activity, tally) in activities where tally.daily.hasFigures(in: span) {
            logged.insert(activity)
        }
        return logged
    }

    /// Whether `day` has a live log or a lesson completion.
    public func isActive(_ day: LocalDay) -> Bool {
        days[day].map { $0.logs > 0 || $0.lessons > 0 } ?? false
    }
}

extension ClosedRange where Bound == LocalDay {
    /// Every day of the range, oldest first.
    public var days: [LocalDay] {
        (lowerBound.daysSince1970...upperBound.daysSince1970).map(LocalDay.init(daysSince1970:))
    }
}
