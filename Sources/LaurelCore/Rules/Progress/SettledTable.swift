/// Per-day (or per-week) figures of the running state (``ProgressAccumulator``), kept in two parts: the periods from a
/// cut-off on, which a LOG of today or a backfill within the backfill window changes, and the *settled* periods
/// before it, which only an older backfill changes.
///
/// Why two parts: a decision changes a copy of the session's state, and a dictionary shared with the session is
/// copied whole at its first change. In one dictionary every LOG of a user with a year of active days copied a year
/// of days, twice (the user's days and the activity's), and a year of the activity's weeks. Split so, a LOG copies
/// the recent periods only, and the settled ones are copied when the cut-off moves, at the first active day of a new
/// day.
///
/// Which part a period is in follows from the period and the cut-off alone (the owner passes the cut-off to every
/// change and moves it with ``settle(before:)``), so a state counted fact by fact and one rebuilt from every fact are
/// equal.
struct SettledTable<Key: Hashable & Comparable & Sendable, Value: Hashable & Sendable>: Hashable, Sendable {
    private var recent: [Key: Value] = [:]
    private var settled: [Key: Value] = [:]

    init() {}

    subscript(key: Key) -> Value? {
        recent[key] ?? settled[key]
    }

    /// Changes the figures of `key` (made from `initial` when it has none yet) in the part the cut-off puts it in.
    /// - Parameter cutoff: the first period not settled; nil while nothing is.
    @discardableResult
    mutating func update<Result>(
        _ key: Key, settledBefore cutoff: Key?, initial: @autoclosure () -> Value, _ change: (inout Value) -> Result
    ) -> Result {
        if let cutoff, key < cutoff {
            return change(&settled[key, default: initial()])
        }
        return change(&recent[key, default: initial()])
    }

    /// Moves the periods before `cutoff` (a later cut-off than any before) to the settled part.
    mutating func settle(before cutoff: Key) {
        guard recent.keys.contains(where: { $0 < cutoff }) else { return }
        for (key, value) in recent where key < cutoff { settled[key] = value }
        recent = recent.filter { $0.key >= cutoff }
    }

    /// Calls `body` with every period and its figures, in no particular order.
    func forEach(_ body: (Key, Value) -> Void) {
        for (key, value) in recent { body(key, value) }
        for (key, value) in settled { body(key, value) }
    }
}

/// Per-day figures (``SettledTable``).
typealias DayTable<Value: Hashable & Sendable> = SettledTable<LocalDay, Value>

/// Per-week figures (``SettledTable``), settled with the week of the days' cut-off.
typealias WeekTable<Value: Hashable & Sendable> = SettledTable<ISOWeek, Value>

extension SettledTable where Key == LocalDay {
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
}
