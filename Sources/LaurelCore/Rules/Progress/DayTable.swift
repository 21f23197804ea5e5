/// Per-day figures of the running state (``ProgressAccumulator``), kept in two parts: the days from a cut-off on,
/// which a LOG of today or a backfill within the backfill window changes, and the *settled* days before it, which
/// only an older backfill changes.
///
/// Why two parts: a decision changes a copy of the session's state, and a dictionary shared with the session is
/// copied whole at its first change. In one dictionary every LOG of a user with a year of active days copied a year
/// of days, twice (the user's days and the activity's). Split so, a LOG copies the recent days only, and the settled
/// ones are copied when the cut-off moves, at the first active day of a new day.
///
/// Which part a day is in follows from the day and the cut-off alone (the owner passes the cut-off to every change
/// and moves it with ``settle(before:)``), so a state counted fact by fact and one rebuilt from every fact are equal.
struct DayTable<Value: Hashable & Sendable>: Hashable, Sendable {
    private var recent: [LocalDay: Value] = [:]
    private var settled: [LocalDay: Value] = [:]

    init() {}

    subscript(day: LocalDay) -> Value? {
        recent[day] ?? settled[day]
    }

    /// Changes the figures of `day` (made from `initial` when the day has none yet) in the part the cut-off puts it in.
    /// - Parameter cutoff: the first day not settled; nil while nothing is.
    @discardableResult
    mutating func update<Result>(
        _ day: LocalDay, settledBefore cutoff: LocalDay?, initial: @autoclosure () -> Value, _ change: (inout Value) -> Result
    ) -> Result {
        if let cutoff, day < cutoff {
            return change(&settled[day, default: initial()])
        }
        return change(&recent[day, default: initial()])
    }

    /// Moves the days before `cutoff` (a later cut-off than any before) to the settled part.
    mutating func settle(before cutoff: LocalDay) {
        guard recent.keys.contains(where: { $0 < cutoff }) else { return }
        for (day, value) in recent where day < cutoff { settled[day] = value }
        recent = recent.filter { $0.key >= cutoff }
    }

    /// Whether any day of `span` has figures: found through the days held when they are fewer than the span's (a
    /// user's first fact of a day asks this of every activity over the 14 days before it).
    func hasFigures(in span: ClosedRange<LocalDay>) -> Bool {
        if recent.count + settled.count <= span.upperBound.days(since: span.lowerBound) + 1 {
            return recent.keys.contains(where: span.contains) || settled.keys.contains(where: span.contains)
        }
        return span.days.contains { self[$0] != nil }
    }

    /// Every day with figures, in no particular order.
    var days: [LocalDay] { Array(recent.keys) + Array(settled.keys) }

    /// Calls `body` with every day and its figures, in no particular order.
    func forEachDay(_ body: (LocalDay, Value) -> Void) {
        for (day, value) in recent { body(day, value) }
        for (day, value) in settled { body(day, value) }
    }
}
