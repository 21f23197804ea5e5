import LaurelCore
import LaurelJSON

/// `ACTIVITIES {"include_deleted"?}`: list the user's activities.
public struct ActivitiesRequest: RequestArguments, Hashable {
    /// Whether soft-deleted custom activities are listed too; `false` when not given.
    public var includeDeleted: Bool

    public init(includeDeleted: Bool = false) {
        self.includeDeleted = includeDeleted
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["include_deleted"])
        includeDeleted = try fields.bool("include_deleted") ?? false
    }
}

/// `ACTIVITY.CREATE {"name", "unit"?, "icon"?}`: create (or restore) a custom activity.
public struct ActivityCreateRequest: RequestArguments, Hashable {
    /// The name, trimmed, 1 to 64 characters, no control characters.
    public var name: String
    /// The unit; `reps` when not given.
    public var unit: ActivityUnit
    /// An icon name, trimmed, 1 to 64 characters.
    public var icon: String?

    public init(name: String, unit: ActivityUnit = .reps, icon: String? = nil) {
        self.name = name
        self.unit = unit
        self.icon = icon
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["name", "unit", "icon"])
        name = try fields.required(fields.string("name", .name), "name")
        unit = try fields.choice("unit", ActivityUnit.self) ?? .reps
        icon = try fields.string("icon", .icon)
    }
}

/// `ACTIVITY.DELETE {"id"}` and `ACTIVITY.RESTORE {"id"}`: the activity to act on.
public struct ActivityIDRequest: RequestArguments, Hashable {
    /// The activity's id or name (case-insensitive), trimmed, 1 to 128 characters.
    public var id: String

    public init(id: String) {
        self.id = id
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["id"])
        id = try fields.required(fields.string("id", .activityReference), "id")
    }
}
