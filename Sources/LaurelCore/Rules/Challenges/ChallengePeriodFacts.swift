/// The facts of one period that challenge progress counts: live logs and lesson completions whose local day lies
/// in the period. Rest and vacation days are settings, not facts, so they never complete a challenge.
public struct ChallengePeriodFacts: Sendable {
    public var logs: [LoggedFact]
    public var lessonDays: [LocalDay]

    public init(logs: [LoggedFact] = [], lessonDays: [LocalDay] = []) {
        self.logs = logs
        self.lessonDays = lessonDays
    }

    /// The facts of `facts` whose day lies in `days`. Every lesson completion counts, a repeated lesson included:
    /// practising a lesson again makes the day active.
    public init(_ facts: ProgressFacts, in days: ClosedRange<LocalDay>) {
        self.init(
            logs: facts.logs.filter { days.contains($0.day) },
            lessonDays: facts.lessons.map(\.day).filter { days.contains($0) })
    }
}
