import Foundation
import LaurelCore

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

    static func number(_ flag: Double?, env name: String, default fallback: Double) throws -> Double {
        if let flag { return flag }
        guard let text = value(nil, env: name) else { return fallback }
        guard let number = Double(text), number.isFinite else { throw SettingError("\(name) must be a number, not \"\(text)\"") }
        return number
    }

    /// A switch: the flag when given, else the environment variable (`1`, `true`, `on`, `yes`; `0`, `false`, `off`, `no`).
    static func boolean(_ flag: Bool, env name: String) throws -> Bool {
        if flag { return true }
        guard let text = value(nil, env: name) else { return false }
        switch text.lowercased() {
        case "1", "true", "on", "yes": return true
        case "0", "false", "off", "no": return false
        default: throw SettingError("\(name) must be on or off, not \"\(text)\"")
        }
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
