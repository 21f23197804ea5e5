/// Something a user does and logs: a built-in of the server's catalog or the user's own custom activity.
public struct Activity: Sendable, Equatable {
    /// The catalog's slug for a built-in (`pushups`), a UUID for a custom activity.
    public var id: String
    public var name: String
    public var unit: ActivityUnit
    public var icon: String?
    public var custom: Bool
    public var deleted: Bool

    public init(id: String, name: String, unit: ActivityUnit, icon: String? = nil, custom: Bool, deleted: Bool = false) {
        self.id = id
        self.name = name
        self.unit = unit
        self.icon = icon
        self.custom = custom
        self.deleted = deleted
    }
}

/// What an activity's `amount` counts.
public enum ActivityUnit: String, Sendable, CaseIterable, Equatable {
    case reps, seconds, minutes, sessions, times
}
