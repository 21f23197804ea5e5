import Foundation

/// The time zone the run's users are created in (`--time-zone`): an IANA name, or `midday` for a fixed-offset zone
/// in which it is between 12:00 and 13:00 when the run starts. Time-of-day achievements (`early_bird` before 7,
/// `night_owl` from 21) unlock at a user's first log only at some hours, so users in UTC make a run's work depend
/// on when it runs; users at midday make runs at any hour do the same work.
enum LoadTimeZone {
    static func resolve(_ option: String, now: Date = Date()) -> String {
        guard option == "midday" else { return option }
        let utcHour = Int(now.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) / 3600)
        let east = (12 - utcHour + 24) % 24
        // Etc/GMT-N lies N hours east of UTC (POSIX's sign); the offsets run from -12 to +14.
        if east == 0 { return "Etc/UTC" }
        return east <= 14 ? "Etc/GMT-\(east)" : "Etc/GMT+\(24 - east)"
    }
}
