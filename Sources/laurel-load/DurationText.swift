/// Durations as written on the command line: a whole number and a unit, `ms`, `s`, `m` or `h` (`500ms`, `30s`).
/// A bare `0` means no time at all.
enum DurationText {
    static func parse(_ text: String) -> Duration? {
        if text == "0" { return .zero }
        let units: [(suffix: String, milliseconds: Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            // "5m" must not be read as a malformed "ms": only digits may stand before the unit.
            guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber),
                  let count = Int64(number) else { continue }
            return .milliseconds(count * unit.milliseconds)
        }
        return nil
    }
}

extension Duration {
    /// Whole microseconds, with anything below zero read as zero.
    var wholeMicroseconds: UInt64 {
        let (seconds, attoseconds) = components
        let total = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return total > 0 ? UInt64(total) : 0
    }

    var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
