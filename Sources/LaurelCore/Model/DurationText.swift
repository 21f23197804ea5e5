/// Durations as operators write them on the command line and in the environment: a whole number and a unit,
/// `ms`, `s`, `m`, `h` or `d` (`500ms`, `10s`, `30d`); a bare `0` is no time at all.
public enum DurationText {
    public static func parse(_ text: String) -> Duration? {
        if text == "0" { return .zero }
        let units: [(suffix: String, milliseconds: Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            // "5m" must not be read as a malformed "ms": only digits may stand before the unit.
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int64(number) else { continue }
            // A number too large for the unit is not a duration (rather than a crash).
            let (milliseconds, overflow) = count.multipliedReportingOverflow(by: unit.milliseconds)
            return overflow ? nil : .milliseconds(milliseconds)
        }
        return nil
    }
}
