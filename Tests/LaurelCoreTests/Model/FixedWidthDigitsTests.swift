import LaurelCore
import Testing

/// Days and times are written digit by digit into their text: zero-padded, the last `count` digits.
@Suite struct FixedWidthDigitsTests {
    @Test(arguments: [
        (0, 1, "0"), (7, 1, "7"), (42, 1, "2"), (0, 2, "00"), (7, 2, "07"), (59, 2, "59"), (5, 3, "005"), (123, 3, "123"),
        (1, 4, "0001"), (2026, 4, "2026"), (99_999, 4, "9999"), (9_999, 4, "9999"), (12_345, 5, "12345"), (0, 6, "000000"),
    ])
    func writesTheLastDigitsZeroPadded(value: Int, count: Int, text: String) {
        let written = String(unsafeUninitializedCapacity: count + 2) { buffer in
            buffer[0] = UInt8(ascii: "<")
            FixedWidthDigits.write(value, count: count, into: buffer, at: 1)
            buffer[count + 1] = UInt8(ascii: ">")
            return count + 2
        }
        #expect(written == "<" + text + ">")
    }
}
