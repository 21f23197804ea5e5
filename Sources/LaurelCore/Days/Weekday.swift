/// A day of the week, numbered as ISO 8601 does (Monday 1 ... Sunday 7); used for the weekly rest day.
public enum Weekday: Int, CaseIterable, Hashable, Comparable, Sendable, Codable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The name the protocol uses (`monday` ... `sunday`).
    public var name: String {
        switch self {
        case .monday: "monday"
        case .tuesday: "tuesday"
        case .wednesday: "wednesday"
        case .thursday: "thursday"
        case .friday: "friday"
        case .saturday: "saturday"
        case .sunday: "sunday"
        }
    }

    /// The weekday with this protocol name, case-insensitively.
    public init?(name: String) {
        guard let match = Weekday.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
