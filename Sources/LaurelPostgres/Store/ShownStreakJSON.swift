import LaurelCore
import LaurelJSON

/// The stored form of the streak a user last saw (`laurel.progress.shown_streak`), the STREAK object's fields.
enum ShownStreakJSON {
    static func json(_ streak: StreakState) -> JSONValue {
        var object: JSONObject = [
            "current": .int(streak.current), "longest": .int(streak.longest), "freezes": .int(streak.freezes),
            "at_risk": .bool(streak.atRisk),
        ]
        if let day = streak.lastActiveDay { object["last_active_day"] = .string(day.description) }
        return .object(object)
    }

    /// Nil for anything that is not such an object (the streak is then taken from the engine state).
    static func streak(from value: JSONValue) -> StreakState? {
        guard case .object(let object) = value,
              case .int(let current)? = object["current"], case .int(let longest)? = object["longest"],
              case .int(let freezes)? = object["freezes"], case .bool(let atRisk)? = object["at_risk"] else { return nil }
        var lastActiveDay: LocalDay?
        if case .string(let day)? = object["last_active_day"] { lastActiveDay = LocalDay(day) }
        return StreakState(current: current, longest: longest, freezes: freezes, atRisk: atRisk, lastActiveDay: lastActiveDay)
    }
}
