/// Writes numbers as zero-padded decimal digits straight into a buffer: what days and timestamps are formatted
/// with (several for every answer and every stored row), without building strings to pad and join.
public enum FixedWidthDigits {
    /// Writes the last `count` decimal digits of `value` (not negative) into `text` from `start` on, zero-padded.
    @inlinable
    public static func write(_ value: Int, count: Int, into text: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var rest = value
        for index in stride(from: start + count - 1, through: start, by: -1) {
            text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }
}
