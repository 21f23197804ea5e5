import Foundation

/// One configuration value: the command-line flag wins, then the environment variable, then the default.
enum Setting {
    static func value(_ flag: String?, env name: String) -> String? {
        if let flag { return flag }
        if let value = ProcessInfo.processInfo.environment[name], !value.isEmpty { return value }
        return nil
    }

    static func integer(_ flag: Int?, env name: String, default fallback: Int) throws -> Int {
        if let flag { return flag }
        guard let text = value(nil, env: name) else { return fallback }
        guard let number = Int(text) else { throw SettingError("\(name) must be an integer, not \"\(text)\"") }
        return number
    }

    static func duration(_ flag: String?, env name: String, default fallback: Duration) throws -> Duration {
        guard let text = value(flag, env: name) else { return fallback }
        guard let duration = DurationText.parse(text) else {
            throw SettingError("\(name) must be a duration such as 10s, 5m, 2h or 30d, not \"\(text)\"")
        }
        return duration
    }
}

struct SettingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Durations as operators write them: a whole number and a unit, `ms`, `s`, `m`, `h` or `d` (`10s`, `30d`).
enum DurationText {
    static func parse(_ text: String) -> Duration? {
        let units: [(String, Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        for (suffix, milliseconds) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            // "5m" must not be read as "5" + "m" of "ms": only accept digits before the suffix.
            guard !number.isEmpty, number.allSatisfy(\.isNumber), let count = Int64(number) else { continue }
            return .milliseconds(count * milliseconds)
        }
        return nil
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
