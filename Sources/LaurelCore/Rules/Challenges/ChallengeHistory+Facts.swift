extension ChallengeHistory {
    /// The history before the period starting at `start`, read from the user's facts. Only facts whose local day
    /// is before `start` count, so a choice re-derived later from the same facts comes out the same. Every lesson
    /// completion makes its day active, a repeated lesson included (practice).
    public init(
        facts: ProgressFacts, before start: LocalDay, currentStreak: Int, liveActivities: [Activity]
    ) {
        var days: [LocalDay: Day] = [:]
        func touch(_ day: LocalDay) {
            if days[day] == nil { days[day] = Day(day: day, logs: 0, amounts: [:], logsByActivity: [:], lessons: 0) }
        }
        for log in facts.logs where log.day < start {
            touch(log.day)
            days[log.day]!.logs += 1
            days[log.day]!.amounts[log.activity, default: 0] += log.amount
            days[log.day]!.logsByActivity[log.activity, default: 0] += 1
        }
        for lesson in facts.lessons where lesson.day < start {
            touch(lesson.day)
            days[lesson.day]!.lessons += 1
        }
        let ordered = days.values.sorted { $0.day < $1.day }
        let previousWeek = start.isoWeek.monday.adding(days: -7)...start.isoWeek.monday.adding(days: -1)
        let recentDays = start.adding(days: -Self.lookBack)..<start
        let recent = Set(facts.logs.filter { recentDays.contains($0.day) }.map(\.activity))
        self.init(
            activeDays: Array(ordered.suffix(Self.lookBack)),
            activeDaysPreviousWeek: ordered.count(where: { previousWeek.contains($0.day) }),
            currentStreak: currentStreak, liveActivities: liveActivities, recentActivities: recent.sorted())
    }
}
