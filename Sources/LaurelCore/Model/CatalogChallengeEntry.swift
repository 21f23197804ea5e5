import LaurelJSON

/// Reads one entry of a catalog file's challenge pool:
/// `{"kind", "title", "xp", "min"?, "max"?, "default"?, "hour"?, "activity"?}`. Kinds with an adaptive target
/// need `min`, `max` and `default`; the others refuse them. `before_hour` needs `hour`; `logs_today`,
/// `sessions_today` and `minutes_today` may name the catalog activity they count.
enum CatalogChallengeEntry {
    static let xp = 1...1000
    static let hour = 1...23

    static func decode(_ value: JSONValue, at path: String, activities: [Activity]) throws(CatalogFileError) -> ChallengePoolEntry {
        guard let object = value.objectValue else { throw CatalogFileError(field: path, reason: "must be an object") }
        guard let kindName = object["kind"]?.stringValue else { throw CatalogFileError(field: "\(path).kind", reason: "must be a challenge kind") }
        guard let kind = ChallengeKind(rawValue: kindName) else {
            throw CatalogFileError(
                field: "\(path).kind",
                reason: "unknown challenge kind \"\(kindName)\"; one of \(ChallengeKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let title = object["title"]?.stringValue, !title.isEmpty else {
            throw CatalogFileError(field: "\(path).title", reason: "must be a non-empty string")
        }
        guard let xp = object["xp"]?.intValue, Self.xp.contains(xp) else {
            throw CatalogFileError(field: "\(path).xp", reason: "must be an integer from 1 to 1000")
        }
        var entry = ChallengePoolEntry(kind: kind, title: title, xp: xp)
        if kind.hasAdaptiveTarget {
            try readTarget(object, into: &entry, at: path)
        } else if let key = ["min", "max", "default"].first(where: { object[$0] != nil }) {
            throw CatalogFileError(field: "\(path).\(key)", reason: "\(kind.rawValue) has no target to bound")
        }
        if kind == .beforeHour {
            guard let hour = object["hour"]?.intValue, Self.hour.contains(hour) else {
                throw CatalogFileError(field: "\(path).hour", reason: "must be a local hour 1 to 23")
            }
            entry.hour = hour
        } else if object["hour"] != nil {
            throw CatalogFileError(field: "\(path).hour", reason: "only before_hour takes an hour")
        }
        if let named = object["activity"] {
            guard kind.mayNameActivity else {
                throw CatalogFileError(field: "\(path).activity", reason: "only logs_today, sessions_today and minutes_today name an activity")
            }
            guard let id = named.stringValue, activities.contains(where: { $0.id == id }) else {
                throw CatalogFileError(field: "\(path).activity", reason: "must name an activity of this catalog")
            }
            entry.activity = id
        }
        // Only amount_today and entries that name an activity have a name to put in the title.
        if title.contains("{activity}"), kind != .amountToday, entry.activity == nil {
            throw CatalogFileError(field: "\(path).title", reason: "{activity} needs an entry that names an activity")
        }
        return entry
    }

    /// `min`, `max` and `default`: positive, min <= default <= max, and at most 7 for a count of days in a week.
    private static func readTarget(_ object: JSONObject, into entry: inout ChallengePoolEntry, at path: String) throws(CatalogFileError) {
        var bounds: [Int] = []
        for key in ["min", "default", "max"] {
            guard let number = object[key]?.intValue, number >= 1 else {
                throw CatalogFileError(field: "\(path).\(key)", reason: "must be a positive integer")
            }
            bounds.append(number)
        }
        let (low, standard, high) = (bounds[0], bounds[1], bounds[2])
        if low > high { throw CatalogFileError(field: "\(path).min", reason: "must not be greater than max (\(high))") }
        if !(low...high).contains(standard) {
            throw CatalogFileError(field: "\(path).default", reason: "must lie between min and max (\(low) to \(high))")
        }
        if entry.kind == .activeDaysWeek, high > 7 {
            throw CatalogFileError(field: "\(path).max", reason: "a week has at most 7 active days")
        }
        (entry.min, entry.defaultTarget, entry.max) = (low, standard, high)
    }
}
