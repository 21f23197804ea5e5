import LaurelJSON

extension TemplateTier {
    /// The tier as the protocol writes it and the database keeps it:
    /// `{"tier", "target", "label"?, "icon"?, "window_minutes"?}`.
    public var json: JSONObject {
        var object: JSONObject = ["tier": .string(tier), "target": .int(target)]
        if let label { object["label"] = .string(label) }
        if let icon { object["icon"] = .string(icon) }
        if let windowMinutes { object["window_minutes"] = .int(windowMinutes) }
        return object
    }

    /// A tier read back from `json`; nil when the name or target is missing.
    public init?(json object: JSONObject) {
        guard let name = object["tier"]?.stringValue, let target = object["target"]?.intValue else { return nil }
        self.init(
            tier: name, target: target, label: object["label"]?.stringValue, icon: object["icon"]?.stringValue,
            windowMinutes: object["window_minutes"]?.intValue)
    }
}
