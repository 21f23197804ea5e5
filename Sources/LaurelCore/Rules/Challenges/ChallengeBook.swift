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
        // `RawRepresentable`'s hashing, which hashes the text ("daily"), and every decision looks periods up four times.
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

    private var periods: [Period: [StoredChallenge]] = [:]

    public init() {}

    /// What is stored for `period` (in slot order), or nil when the book does not know.
    public func challenges(of period: Period) -> [StoredChallenge]? {
        periods[period]
    }

    /// Takes on what the store holds for `period`.
    public mutating func know(_ period: Period, stored: [StoredChallenge]) {
        periods[period] = stored.sorted { $0.choice.slot < $1.choice.slot }
    }

    /// The periods the book knows.
    public var knownPeriods: [Period] { periods.keys.sorted() }

    /// Every challenge held that is not completed, of the periods `included` accepts, in period order.
    public func open(in included: (Period) -> Bool = { _ in true }) -> [ChallengeChoice] {
        var open: [ChallengeChoice] = []
        for period in periods.keys.sorted() where included(period) {
            for stored in periods[period]! where stored.completedAt == nil { open.append(stored.choice) }
        }
        return open
    }

    /// Whether a challenge of the periods `included` accepts that is not completed meets `condition`, looked at in
    /// place: every decision asks, and nearly always none does.
    public func containsOpen(in included: (Period) -> Bool = { _ in true }, where condition: (ChallengeChoice) -> Bool) -> Bool {
        for (period, list) in periods where included(period) {
            // Through the elements' addresses: a look at an element copied the challenge (its strings retained and
            // released, shared with every user's copy of the catalog's titles) on every decision, through the
            // array's subscript and through iterating its buffer alike.
            let found = list.withUnsafeBufferPointer { challenges in
                guard let first = challenges.baseAddress else { return false }
                return (0..<challenges.count).contains { index in
                    (first + index).pointee.completedAt == nil && condition((first + index).pointee.choice)
                }
            }
            if found { return true }
        }
        return false
    }

    /// Marks a held challenge completed at `at`.
    public mutating func complete(_ choice: ChallengeChoice, at: Date) {
        let period = Period(choice.period, start: choice.periodStart)
        guard let index = periods[period]?.firstIndex(where: { $0.choice.slot == choice.slot }) else { return }
        periods[period]![index].completedAt = at
    }

    /// Forgets periods that ended before `day` (nothing can be logged that far back).
    public mutating func forget(endingBefore day: LocalDay) {
        // Every decision asks; nearly always there is nothing to forget, and then the book is not copied.
        guard periods.keys.contains(where: { $0.days.upperBound < day }) else { return }
        periods = periods.filter { $0.key.days.upperBound >= day }
    }
}
