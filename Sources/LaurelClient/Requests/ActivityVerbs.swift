import Foundation

extension Verb {
    /// `ACTIVITIES`: the catalog's activities and the user's own.
    public struct Activities: LaurelRequest {
        public static let verb = "ACTIVITIES"
        public typealias Answer = [Activity]
        /// Lists soft-deleted custom activities too.
        public var includeDeleted: Bool?

        enum CodingKeys: String, CodingKey {
            case includeDeleted = "include_deleted"
        }

        public init(includeDeleted: Bool? = nil) { self.includeDeleted = includeDeleted }
    }

    /// `ACTIVITY.CREATE`: a custom activity; a name of one of the user's deleted activities restores that one.
    public struct CreateActivity: LaurelRequest {
        public static let verb = "ACTIVITY.CREATE"
        public typealias Answer = Activity
        /// 1 to 64 characters, unique among the user's activities and the built-ins.
        public var name: String
        /// `reps` when not given.
        public var unit: ActivityUnit?
        public var icon: String?

        public init(name: String, unit: ActivityUnit? = nil, icon: String? = nil) {
            self.name = name
            self.unit = unit
            self.icon = icon
        }
    }

    /// `ACTIVITY.DELETE`: soft-deletes a custom activity; its logs stay.
    public struct DeleteActivity: LaurelRequest {
        public static let verb = "ACTIVITY.DELETE"
        public typealias Answer = Activity
        /// The activity's id or name.
        public var id: String
        public init(id: String) { self.id = id }
    }

    /// `ACTIVITY.RESTORE`: brings a deleted custom activity back.
    public struct RestoreActivity: LaurelRequest {
        public static let verb = "ACTIVITY.RESTORE"
        public typealias Answer = Activity
        /// The activity's id or name.
        public var id: String
        public init(id: String) { self.id = id }
    }
}
