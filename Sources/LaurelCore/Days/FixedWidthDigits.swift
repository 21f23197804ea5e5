/// Writes numbers as zero-padded decimal digits straight into a buffer: what days and timestamps are formatted
/// with (several for every answer and every stored row), without building strings to pad and join.
public enum FixedWidthDigits {
    /// Writes the last `count` decimal digits of `value` (not negative) into `text` from `start` on, zero-padded.
    @inlinable
    public static func write(_ value: Int, count: Int, into text: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        // Two digits a division, unsigned (a day is four pairs, a time of day three).
        var rest = UInt(truncatingIfNeeded: value)
        var end = start + count
        while end - start >= 2 {
            let pair = rest % 100
            rest /= 100
            end -= 2
            text[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
            text[end + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
        }
        if end > start { text[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10) }
    }
}
