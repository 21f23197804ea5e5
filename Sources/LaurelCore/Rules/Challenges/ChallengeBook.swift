import Foundation

/// The user's stored challenges of the periods a session knows about: for each such period, what is stored (an
/// empty list when nothing was chosen). A period the book does not know is loaded before anything that needs it
/// is decided; progress is never kept here, it is counted from the facts (``ChallengeProgress``).
public struct ChallengeBook: Sendable, Equatable {
    /// A period of one user: daily or weekly, from its first day.
    public struct Period: Hashable, Sendable, Comparable {
        public var kind: ChallengePeriod
        public var start: LocalDay

        public init(_ kind: ChallengePeriod, start: LocalDay) {
            self.kind = kind
            self.start = start
        }

        /// The period of `kind` that contains `day`.
        public init(_ kind: ChallengePeriod, containing day: LocalDay) {
            self.init(kind, start: kind.start(of: day))
        }

        public var days: ClosedRange<LocalDay> { kind.days(from: start) }

        public static func < (lhs: Period, rhs: Period) -> Bool {
            (lhs.start, lhs.order) < (rhs.start, rhs.order)
        }

        // Hashed and compared by the kind's case, not by its raw value: a `String`-backed enum takes
        // `RawRepresentable`'s hashing, which hashes the text ("daily"); every decision compares periods several
        // times, and the pieces a decision asks for hold them in sets.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(start.daysSince1970 &* 2 &+ order)
        }

        public static func == (lhs: Period, rhs: Period) -> Bool {
            lhs.start == rhs.start && lhs.order == rhs.order
        }

        private var order: Int {
            switch kind {
            case .daily: 0
            case .weekly: 1
            }
        }
    }

    /// A period the book knows, with what is stored for it (in slot order).
    private struct Entry: Sendable, Equatable {
        let period: Period
        var stored: [StoredChallenge]
    }

    /// In period order. A session knows the current day's and week's periods, and after a backfill those of the
    /// backfill window (a month and some weeks): every decision finds periods here several times, and a look along
    /// them costs less than hashing one period (which a table of them did at every look).
    private var entries: [Entry] = []

    public init() {}

    /// Where `period` is in `entries`, looked at through the entries' addresses (iterating them would copy each,
    /// its list retained and released).
    private func place(of period: Period) -> Int? {
        entries.withUnsafeBufferPointer { entries in
            guard let first = entries.baseAddress else { return nil }
            return (0..<entries.count).first { (first + $0).pointee.period == period }
        }
    }

    /// What is stored for `period` (in slot order), or nil when the book does not know.
    public func challenges(of period: Period) -> [StoredChallenge]? {
        place(of: period).map { entries[$0].stored }
    }

    /// Whether the book knows what the store holds for `period` (asked for without the challenges themselves: handed
    /// out, the user's array of them was retained and released at each look, twice a LOG).
    public func knows(_ period: Period) -> Bool {
        place(of: period) != nil
    }

    /// Whether the book knows that the store holds no challenges for `period`.
    public func knowsNone(of period: Period) -> Bool {
        guard let place = place(of: period) else { return false }
        return entries[place].stored.isEmpty
    }

    /// Takes on what the store holds for `period`.
    public mutating func know(_ period: Period, stored: [StoredChallenge]) {
        let stored = stored.sorted { $0.choice.slot < $1.choice.slot }
        if let place = place(of: period) {
            entries[place].stored = stored
        } else {
            entries.insert(Entry(period: period, stored: stored), at: entries.firstIndex { period < $0.period } ?? entries.endIndex)
        }
    }

    /// The periods the book knows.
    public var knownPeriods: [Period] { entries.map(\.period) }

    /// Every challenge held that is not completed, of the periods `included` accepts, in period order.
    public func open(in included: (Period) -> Bool = { _ in true }) -> [ChallengeChoice] {
        var open: [ChallengeChoice] = []
        for entry in entries where included(entry.period) {
            for stored in entry.stored where stored.completedAt == nil { open.append(stored.choice) }
        }
        return open
    }

    /// Whether a challenge of the periods `included` accepts that is not completed meets `condition`, looked at in
    /// place: every decision asks, and nearly always none does.
    public func containsOpen(in included: (Period) -> Bool = { _ in true }, where condition: (UnsafePointer<ChallengeChoice>) -> Bool) -> Bool {
        // Through the elements' addresses: a look at an element copied the challenge (its strings retained and
        // released, shared with every user's copy of the catalog's titles) on every decision, through the array's
        // subscript and through iterating its buffer alike.
        entries.withUnsafeBufferPointer { entries in
            guard let firstEntry = entries.baseAddress else { return false }
            return (0..<entries.count).contains { place in
                guard included((firstEntry + place).pointee.period) else { return false }
                return (firstEntry + place).pointee.stored.withUnsafeBufferPointer { challenges in
                    guard let first = challenges.baseAddress else { return false }
                    return (0..<challenges.count).contains { index in
                        (first + index).pointee.completedAt == nil && condition(Self.choice(at: first + index))
                    }
                }
            }
        }
    }

    /// The address of the choice of the held challenge at `stored`: the condition reads what it needs of it there
    /// (passed as a value, the choice was copied at each look, its title and activity retained and released).
    private static func choice(at stored: UnsafePointer<StoredChallenge>) -> UnsafePointer<ChallengeChoice> {
        (UnsafeRawPointer(stored) + choiceOffset).assumingMemoryBound(to: ChallengeChoice.self)
    }

    private static let choiceOffset = MemoryLayout<StoredChallenge>.offset(of: \StoredChallenge.choice)!

    /// Marks a held challenge completed at `at`.
    public mutating func complete(_ choice: ChallengeChoice, at: Date) {
        guard let place = place(of: Period(choice.period, start: choice.periodStart)),
              let index = entries[place].stored.firstIndex(where: { $0.choice.slot == choice.slot })
        else { return }
        entries[place].stored[index].completedAt = at
    }

    /// Forgets periods that ended before `day` (nothing can be logged that far back).
    public mutating func forget(endingBefore day: LocalDay) {
        // Every decision asks; nearly always there is nothing to forget, and then the book is not copied.
        let ended = entries.withUnsafeBufferPointer { entries in
            guard let first = entries.baseAddress else { return false }
            return (0..<entries.count).contains { (first + $0).pointee.period.days.upperBound < day }
        }
        guard ended else { return }
        entries.removeAll { $0.period.days.upperBound < day }
    }
}
