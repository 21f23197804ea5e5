import LaurelCore

extension Duration {
    /// Whole microseconds, with anything below zero read as zero.
    var wholeMicroseconds: UInt64 {
        let (seconds, attoseconds) = components
        let total = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return total > 0 ? UInt64(total) : 0
    }

    var secondsValue: Double {
        DurationText.seconds(self)
    }
}
