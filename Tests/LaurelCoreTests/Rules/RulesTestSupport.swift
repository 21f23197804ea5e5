import Foundation
import LaurelCore

/// Small builders shared by the rules tests.
enum Fixture {
    static let utc = TimeZone(identifier: "UTC")!

    static func zone(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier)!
    }

    static func day(_ text: String) -> LocalDay {
        LocalDay(text)!
    }

    /// The instant of a UTC wall-clock reading, e.g. `instant("2024-03-31", 1, 30)`.
    static func instant(_ dayText: String, _ hour: Int = 12, _ minute: Int = 0, _ second: Double = 0) -> Date {
        let seconds = Double(day(dayText).daysSince1970 * 86_400 + hour * 3600 + minute * 60) + second
        return Date(timeIntervalSince1970: seconds)
    }

    /// A log read in UTC.
    static func log(
        _ id: String, _ activity: String, _ amount: Int = 1, _ dayText: String,
        _ hour: Int = 12, _ minute: Int = 0, _ second: Double = 0
    ) -> LoggedFact {
        LoggedFact(id: id, activity: activity, amount: amount, at: instant(dayText, hour, minute, second), zone: utc)
    }

    /// One log a day on each of `days`.
    static func logs(on days: [String], activity: String = "squats") -> [LoggedFact] {
        days.enumerated().map { log("\(activity)-\($0.element)-\($0.offset)", activity, 1, $0.element) }
    }

    /// The days from `first` on, `count` of them, as text.
    static func days(from first: String, count: Int) -> [String] {
        (0..<count).map { day(first).adding(days: $0).description }
    }

    /// The accumulator fed with `facts` one by one, each log with every earlier log as neighbours.
    static func accumulate(
        _ facts: ProgressFacts, settings: StreakSettingsHistory = StreakSettingsHistory(), speedWindows: Set<SpeedWindow> = []
    ) -> ProgressAccumulator {
        var accumulator = ProgressAccumulator(speedWindows: speedWindows)
        for lesson in facts.lessons { accumulator.record(lesson, settings: settings) }
        for event in facts.events { accumulator.record(event) }
        for reminder in facts.reminders { accumulator.record(reminder, settings: settings) }
        var earlier: [LoggedFact] = []
        for log in facts.logs {
            accumulator.record(log, neighbours: earlier, settings: settings)
            earlier.append(log)
        }
        return accumulator
    }
}
