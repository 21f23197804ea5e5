extension Duration {
    /// The duration in seconds, with its fraction.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Whole milliseconds, rounded down.
    public var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// Whole microseconds, rounded down; anything below zero is zero.
    public var wholeMicroseconds: UInt64 {
        let total = components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
        return total > 0 ? UInt64(total) : 0
    }
}
