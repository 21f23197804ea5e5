/// What a board ranks users by (rules.md, "Friends and leaderboards"): XP earned in the period, live logs, the summed
/// amount of one built-in activity's live logs, or challenges completed.
public enum LeaderboardBoard: Hashable, Sendable, CustomStringConvertible {
    case xp
    case logs
    /// A built-in activity, by id: custom activities have no board.
    case activity(String)
    case challenges

    /// The board as stored and as a request names it with its activity: `xp`, `logs`, `challenges`, `activity:ID`.
    public var description: String {
        switch self {
        case .xp: "xp"
        case .logs: "logs"
        case .activity(let id): "activity:\(id)"
        case .challenges: "challenges"
        }
    }

    public init?(_ description: String) {
        switch description {
        case "xp": self = .xp
        case "logs": self = .logs
        case "challenges": self = .challenges
        default:
            guard description.hasPrefix("activity:"), description.count > "activity:".count else { return nil }
            self = .activity(String(description.dropFirst("activity:".count)))
        }
    }
}

/// One score of one user: a board in a period key.
public struct BoardKey: Hashable, Sendable {
    public var board: LeaderboardBoard
    public var period: LeaderboardPeriod
    public var key: String

    public init(board: LeaderboardBoard, period: LeaderboardPeriod, key: String) {
        self.board = board
        self.period = period
        self.key = key
    }

    /// The four keys (day, week, month, all) that something on `day` counts in.
    public static func keys(of board: LeaderboardBoard, on day: LocalDay) -> [BoardKey] {
        LeaderboardPeriod.allCases.map { BoardKey(board: board, period: $0, key: $0.key(of: day)) }
    }
}

extension LeaderboardBoard: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let board = LeaderboardBoard(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a board: \(text)")
        }
        self = board
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
