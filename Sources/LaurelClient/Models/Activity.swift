import Foundation

/// An activity the user logs (ACTIVITY): a built-in of the server's catalog or one of the user's own.
public struct Activity: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var unit: ActivityUnit
    /// Whether the user made it (ACTIVITY.CREATE); built-ins are not custom.
    public var custom: Bool
    /// Soft-deleted (ACTIVITY.DELETE); ACTIVITY.RESTORE brings it back.
    public var deleted: Bool
    public var icon: String?
}

/// What an activity's amounts count: `reps`, `seconds`, `minutes`, `sessions` or `times`. A unit this library does
/// not name yet still decodes, as its raw value.
public struct ActivityUnit: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public static let reps: ActivityUnit = "reps"
    public static let seconds: ActivityUnit = "seconds"
    public static let minutes: ActivityUnit = "minutes"
    public static let sessions: ActivityUnit = "sessions"
    public static let times: ActivityUnit = "times"
}
