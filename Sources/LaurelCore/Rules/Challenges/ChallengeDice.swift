/// The chooser's source of chance: SplitMix64 seeded from the user, period and start day, so the same user and
/// period always get the same draw, on every instance and after every restart. Swift's `Hasher` and the
/// standard library's shuffles are not used: the first is seeded per process, and the second's algorithm is
/// not promised to stay the same across releases.
struct ChallengeDice {
    private var state: UInt64

    init(user: UserID, period: ChallengePeriod, start: LocalDay) {
        var state = Self.mix(UInt64(bitPattern: user.rawValue))
        state = Self.mix(state ^ (period == .daily ? 0x6461_696C_79 : 0x7765_656B_6C79))
        state = Self.mix(state ^ UInt64(bitPattern: Int64(start.daysSince1970)))
        self.state = state
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A number in `0..<count`, from the high half of a full-width product (no modulo bias worth the name).
    mutating func index(below count: Int) -> Int {
        precondition(count > 0)
        return Int(next().multipliedFullWidth(by: UInt64(count)).high)
    }

    /// The elements in an order drawn by Fisher-Yates.
    mutating func shuffled<Element>(_ elements: [Element]) -> [Element] {
        var result = elements
        for last in result.indices.reversed() where last > 0 {
            result.swapAt(last, index(below: last + 1))
        }
        return result
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
