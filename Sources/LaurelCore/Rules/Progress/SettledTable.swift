/// Per-day (or per-week) figures of the running state (``ProgressAccumulator``), kept in three parts: the *latest*
/// period (the last active one), which a LOG of today changes; the other periods from a cut-off on, which a backfill
/// within the backfill window changes; and the *settled* periods before it, which only an older backfill changes.
///
/// Why the parts: a decision changes a copy of the session's state, and a dictionary shared with the session is
/// copied whole at its first change. In one dictionary every LOG of a user with a year of active days copied a year
/// of days, twice (the user's days and the activity's), and a year of the activity's weeks; in two parts, forty days
/// of them. Split so, a LOG of today copies its own day, a backfill the recent days, and the other parts are copied
/// when the cut-offs move, at the first active day of a new day.
///
/// Which part a period is in follows from the period and the cut-offs alone (the owner passes them to every change
/// and moves them with ``settle(at:)``), so a state counted fact by fact and one rebuilt from every fact are equal.
struct SettledTable<Key: Hashable & Comparable & Sendable, Value: Hashable & Sendable>: Hashable, Sendable {
    /// From the latest cut-off on: the last active period (and a new one while it is recorded), which a LOG of today
    /// changes. Kept apart from the other recent periods so that such a LOG copies one entry, not forty; one or two
    /// entries, in period order, found by comparing keys rather than hashing them.
    private var latest: [Entry] = []
    private var recent: [Key: Value] = [:]
    private var settled: [Key: Value] = [:]

    private struct Entry: Hashable, Sendable {
        var key: Key
        var value: Value
    }

    init() {}

    subscript(key: Key) -> Value? {
        for entry in latest where entry.key == key { return entry.value }
        return recent[key] ?? settled[key]
    }

    /// Changes the figures of `key` (made from `initial` when it has none yet) in the part the cut-offs put it in.
    @discardableResult
    mutating func update<Result>(
        _ key: Key, cutoffs: TableCutoffs<Key>, initial: @autoclosure () -> Value, _ change: (inout Value) -> Result
    ) -> Result {
        if let settledBefore = cutoffs.settledBefore, key < settledBefore {
            return change(&settled[key, default: initial()])
        }
        if let latestFrom = cutoffs.latestFrom, key < latestFrom {
            return change(&recent[key, default: initial()])
        }
        if let index = latest.firstIndex(where: { $0.key == key }) { return change(&latest[index].value) }
        var value = initial()
        let result = change(&value)
        latest.insert(Entry(key: key, value: value), at: latest.firstIndex { $0.key > key } ?? latest.endIndex)
        return result
    }

    /// Moves the periods to the parts `cutoffs` (later cut-offs than any before) put them in.
    mutating func settle(at cutoffs: TableCutoffs<Key>) {
        if let latestFrom = cutoffs.latestFrom, latest.contains(where: { $0.key < latestFrom }) {
            for entry in latest where entry.key < latestFrom { recent[entry.key] = entry.value }
            latest.removeAll { $0.key < latestFrom }
        }
        if let settledBefore = cutoffs.settledBefore, recent.keys.contains(where: { $0 < settledBefore }) {
            for (key, value) in recent where key < settledBefore { settled[key] = value }
            recent = recent.filter { $0.key >= settledBefore }
        }
    }

    /// Calls `body` with every period and its figures, in no particular order.
    func forEach(_ body: (Key, Value) -> Void) {
        for entry in latest { body(entry.key, entry.value) }
        for (key, value) in recent { body(key, value) }
        for (key, value) in settled { body(key, value) }
    }

    /// How many periods have figures.
    var count: Int { latest.count + recent.count + settled.count }
}

/// Where the parts of a ``SettledTable`` begin, which its owner works out from its last active period alone.
struct TableCutoffs<Key: Comparable & Sendable>: Sendable {
    /// The first period not settled; nil while nothing is.
    var settledBefore: Key?
    /// The first of the latest periods; nil while there are none.
    var latestFrom: Key?
}

extension TableCutoffs where Key == LocalDay {
    /// The same cut-offs for a table of weeks: the weeks the days lie in.
    var weeks: TableCutoffs<ISOWeek> { TableCutoffs<ISOWeek>(settledBefore: settledBefore?.isoWeek, latestFrom: latestFrom?.isoWeek) }
}

/// Per-day figures (``SettledTable``).
typealias DayTable<Value: Hashable & Sendable> = SettledTable<LocalDay, Value>

/// Per-week figures (``SettledTable``), settled with the week of the days' cut-off.
typealias WeekTable<Value: Hashable & Sendable> = SettledTable<ISOWeek, Value>

extension SettledTable where Key == LocalDay {
    /// Whether any day of `span` has figures: found through the days held when they are fewer than the span's (a
    /// user's first fact of a day asks this of every activity over the 14 days before it).
    func hasFigures(in span: ClosedRange<LocalDay>) -> Bool {
        if count <= span.upperBound.days(since: span.lowerBound) + 1 {
            return latest.contains { span.contains($0.key) } || recent.keys.contains(where: span.contains)
                || settled.keys.contains(where: span.contains)
        }
        return span.days.contains { self[$0] != nil }
    }

    /// Every day with figures, in no particular order.
    var days: [LocalDay] { latest.map(\.key) + Array(recent.keys) + Array(settled.keys) }
}
