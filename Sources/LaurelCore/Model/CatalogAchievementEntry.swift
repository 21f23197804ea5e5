import LaurelJSON

/// Reads one achievement of a catalog file:
/// `{"id", "name", "description", "icon", "category", "tier", "rule": {"kind", ...}, "target", "secret"?}`.
/// The rule's fields follow its kind: `activity` for the per-activity rules, `window_minutes` for `speed`,
/// `activities` for `distinct_activities`, `hour` for `logs_before`/`logs_after`, `category` (optional) for
/// `lessons`, `name` for `events`, `board` and `percent` for `top_percent`.
enum CatalogAchievementEntry {
    static func decode(_ value: JSONValue, at path: String) throws(CatalogFileError) -> AchievementDefinition {
        guard let object = value.objectValue else { throw CatalogFileError(field: path, reason: "must be an object") }
        let tierName = try text(object, "tier", at: path)
        guard let tier = AchievementTier(rawValue: tierName) else {
            throw CatalogFileError(field: "\(path).tier", reason: "must be one of bronze, silver, gold, platinum")
        }
        guard let target = object["target"]?.intValue, target >= 1 else {
            throw CatalogFileError(field: "\(path).target", reason: "must be a positive integer")
        }
        guard let ruleObject = object["rule"]?.objectValue else {
            throw CatalogFileError(field: "\(path).rule", reason: "must be an object with a kind")
        }
        return AchievementDefinition(
            id: try text(object, "id", at: path), name: try text(object, "name", at: path),
            description: object["description"]?.stringValue ?? "", icon: object["icon"]?.stringValue ?? "🏅",
            category: try text(object, "category", at: path), tier: tier, rule: try rule(ruleObject, at: "\(path).rule"),
            target: target, isSecret: object["secret"]?.boolValue ?? false)
    }

    static func rule(_ object: JSONObject, at path: String) throws(CatalogFileError) -> AchievementRule {
        let kindName = try text(object, "kind", at: path)
        guard let kind = AchievementRule.Kind(rawValue: kindName) else {
            throw CatalogFileError(field: "\(path).kind", reason: "unknown rule kind \"\(kindName)\"")
        }
        switch kind {
        case .totalLogs: return .totalLogs
        case .streak: return .streak
        case .weeklyStreak: return .weeklyStreak
        case .reminderStreak: return .reminderStreak
        case .dayVariety: return .dayVariety
        case .perfectWeeks: return .perfectWeeks
        case .busiestDay: return .busiestDay
        case .level: return .level
        case .activityTotal: return .activityTotal(activity: try text(object, "activity", at: path))
        case .activityStreak: return .activityStreak(activity: try text(object, "activity", at: path))
        case .bestDay: return .bestDay(activity: try text(object, "activity", at: path))
        case .bestWeek: return .bestWeek(activity: try text(object, "activity", at: path))
        case .monthTotal, .comboDays:
            throw CatalogFileError(field: "\(path).kind", reason: "\(kind.rawValue) is for templates, not catalogs")
        case .speed:
            guard let minutes = object["window_minutes"]?.intValue, (1...1440).contains(minutes) else {
                throw CatalogFileError(field: "\(path).window_minutes", reason: "must be 1 to 1440")
            }
            return .speed(activity: try text(object, "activity", at: path), windowMinutes: minutes)
        case .distinctActivities:
            guard let list = object["activities"]?.arrayValue, !list.isEmpty,
                  case let names = list.compactMap(\.stringValue), names.count == list.count else {
                throw CatalogFileError(field: "\(path).activities", reason: "must be a non-empty list of activity ids")
            }
            return .distinctActivities(Set(names))
        case .logsBefore, .logsAfter:
            guard let hour = object["hour"]?.intValue, (0...24).contains(hour) else {
                throw CatalogFileError(field: "\(path).hour", reason: "must be a local hour 0 to 24")
            }
            return kind == .logsBefore ? .logsBefore(hour: hour) : .logsAfter(hour: hour)
        case .lessons:
            return .lessons(category: object["category"]?.stringValue)
        case .events:
            return .events(name: try text(object, "name", at: path))
        case .topPercent:
            guard let board = LeaderboardBoard(try text(object, "board", at: path)) else {
                throw CatalogFileError(field: "\(path).board", reason: "must be xp, logs, challenges or activity:ID")
            }
            guard let percent = object["percent"]?.intValue, (1...100).contains(percent) else {
                throw CatalogFileError(field: "\(path).percent", reason: "must be 1 to 100")
            }
            return .topPercent(TopPercentGoal(board: board, percent: percent))
        }
    }

    private static func text(_ object: JSONObject, _ key: String, at path: String) throws(CatalogFileError) -> String {
        guard let value = object[key]?.stringValue, !value.isEmpty else {
            throw CatalogFileError(field: "\(path).\(key)", reason: "must be a non-empty string")
        }
        return value
    }
}
