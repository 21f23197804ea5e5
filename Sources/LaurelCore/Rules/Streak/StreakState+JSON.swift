import LaurelJSON

extension StreakState {
    /// The streak as the protocol writes it (the STREAK object) and the database keeps the one last shown:
    /// `{"current", "longest", "freezes", "at_risk", "last_active_day"?}`.
    public var json: JSONObject {
        var object: JSONObject = [
            "current": .int(current), "longest": .int(longest), "freezes": .int(freezes), "at_risk": .bool(atRisk),
        ]
        if let lastActiveDay { object["last_active_day"] = .string(lastActiveDay.description) }
        return object
    }

    /// A streak read back from `json`; nil when a figure is missing.
    public init?(json object: JSONObject) {
        guard let current = object["current"]?.intValue, let longest = object["longest"]?.intValue,
              let freezes = object["freezes"]?.intValue, case .bool(let atRisk)? = object["at_risk"] else { return nil }
        self.init(
            current: current, longest: longest, freezes: freezes, atRisk: atRisk,
            lastActiveDay: object["last_active_day"]?.stringValue.flatMap(LocalDay.init))
    }
}
