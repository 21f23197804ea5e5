import LaurelJSON

/// Reads a catalog data file (a JSON document, see `docs/catalogs.md`). Errors name the field that is wrong,
/// so an operator's own catalog fails at start-up with a message that says where to look.
public enum CatalogFile {
    public static let formatVersion = 1

    public static func decode(_ bytes: [UInt8]) throws(CatalogFileError) -> Catalog {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw CatalogFileError(field: "(document)", reason: "not valid JSON: \(error)")
        }
        guard let root = document.objectValue else { throw CatalogFileError(field: "(document)", reason: "must be a JSON object") }
        guard root["laurel_catalog"]?.intValue == formatVersion else {
            throw CatalogFileError(field: "laurel_catalog", reason: "must be \(formatVersion)")
        }
        let name = try string(root, "name", at: "name")
        var activities: [Activity] = []
        for (index, entry) in try array(root, "activities", at: "activities").enumerated() {
            let path = "activities[\(index)]"
            guard let object = entry.objectValue else { throw CatalogFileError(field: path, reason: "must be an object") }
            let unitName = try string(object, "unit", at: "\(path).unit")
            guard let unit = ActivityUnit(rawValue: unitName) else {
                throw CatalogFileError(field: "\(path).unit", reason: "must be one of \(ActivityUnit.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let activity = Activity(
                id: try string(object, "id", at: "\(path).id"), name: try string(object, "name", at: "\(path).name"), unit: unit,
                icon: object["icon"]?.stringValue, custom: false)
            if activities.contains(where: { $0.id == activity.id || $0.name.lowercased() == activity.name.lowercased() }) {
                throw CatalogFileError(field: "\(path).id", reason: "an activity with this id or name is listed twice")
            }
            activities.append(activity)
        }
        var lessons: [Catalog.Lesson] = []
        for (index, entry) in (root["lessons"]?.arrayValue ?? []).enumerated() {
            let path = "lessons[\(index)]"
            guard let object = entry.objectValue else { throw CatalogFileError(field: path, reason: "must be an object") }
            lessons.append(Catalog.Lesson(id: try string(object, "id", at: "\(path).id"), category: try string(object, "category", at: "\(path).category")))
        }
        var events: [String] = []
        for (index, entry) in (root["events"]?.arrayValue ?? []).enumerated() {
            guard let event = entry.stringValue, !event.isEmpty else { throw CatalogFileError(field: "events[\(index)]", reason: "must be a name") }
            events.append(event)
        }
        var achievements: [AchievementDefinition] = []
        for (index, entry) in (root["achievements"]?.arrayValue ?? []).enumerated() {
            let achievement = try CatalogAchievementEntry.decode(entry, at: "achievements[\(index)]")
            if achievements.contains(where: { $0.id == achievement.id }) {
                throw CatalogFileError(field: "achievements[\(index)].id", reason: "\(achievement.id) is listed twice")
            }
            if let activity = achievement.rule.activity, !activities.contains(where: { $0.id == activity }) {
                throw CatalogFileError(field: "achievements[\(index)].rule.activity", reason: "no activity \(activity) in this catalog")
            }
            if case .distinctActivities(let named) = achievement.rule,
               let unknown = named.sorted().first(where: { name in !activities.contains { $0.id == name } }) {
                throw CatalogFileError(field: "achievements[\(index)].rule.activities", reason: "no activity \(unknown) in this catalog")
            }
            if case .events(let event) = achievement.rule, !events.contains(event) {
                throw CatalogFileError(field: "achievements[\(index)].rule.name", reason: "no event \(event) in this catalog")
            }
            achievements.append(achievement)
        }
        var presets: [TemplatePreset] = []
        for (index, entry) in try optionalArray(root, "presets").enumerated() {
            let preset = try CatalogPresetEntry.decode(entry, at: "presets[\(index)]")
            if presets.contains(where: { $0.id == preset.id }) {
                throw CatalogFileError(field: "presets[\(index)].id", reason: "\(preset.id) is listed twice")
            }
            presets.append(preset)
        }
        var pool: [ChallengePoolEntry] = []
        for (index, entry) in try optionalArray(root, "challenges").enumerated() {
            let challenge = try CatalogChallengeEntry.decode(entry, at: "challenges[\(index)]", activities: activities)
            if pool.contains(where: { $0.kind == challenge.kind }) {
                throw CatalogFileError(field: "challenges[\(index)].kind", reason: "\(challenge.kind.rawValue) is listed twice")
            }
            pool.append(challenge)
        }
        return Catalog(
            name: name, activities: activities, lessons: lessons, eventNames: events, achievements: achievements,
            presets: presets, challengePool: pool)
    }

    private static func string(_ object: JSONObject, _ key: String, at path: String) throws(CatalogFileError) -> String {
        guard let value = object[key]?.stringValue, !value.isEmpty else { throw CatalogFileError(field: path, reason: "must be a non-empty string") }
        return value
    }

    /// A section a catalog may leave out (then it has none of it), but not give as something else.
    private static func optionalArray(_ object: JSONObject, _ key: String) throws(CatalogFileError) -> [JSONValue] {
        guard let value = object[key] else { return [] }
        guard let list = value.arrayValue else { throw CatalogFileError(field: key, reason: "must be an array") }
        return list
    }

    private static func array(_ object: JSONObject, _ key: String, at path: String) throws(CatalogFileError) -> [JSONValue] {
        guard let value = object[key]?.arrayValue else { throw CatalogFileError(field: path, reason: "must be an array") }
        return value
    }
}

/// A catalog file that cannot be used, and the field to blame.
public struct CatalogFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}
