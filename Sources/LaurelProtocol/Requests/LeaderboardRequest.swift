import LaurelCore
import LaurelJSON

/// `LEADERBOARD {"board", "activity"?, "period"?, "key"?, "scope"?, "limit"?, "after"?, "around_me"?}`: a page of a
/// board, the asking user's entry and the board's size.
public struct LeaderboardRequest: RequestArguments, Hashable {
    /// The boards a request names; `activity` takes a built-in activity besides.
    public enum Board: String, Sendable, Hashable, CaseIterable {
        case xp, logs, activity, challenges
    }

    public enum Scope: String, Sendable, Hashable, CaseIterable {
        case global, friends
    }

    public static let defaultLimit = 10
    public static let limits = 1...100

    public var board: Board
    /// The activity of an `activity` board, by id or name.
    public var activity: String?
    public var period: LeaderboardPeriod
    /// The period's key; nil for the current one in the asking user's zone.
    public var key: String?
    public var scope: Scope
    public var limit: Int
    /// The `next` of the page before.
    public var after: String?
    /// The page centred on the asking user instead of the first one.
    public var aroundMe: Bool

    public init(
        board: Board, activity: String? = nil, period: LeaderboardPeriod = .week, key: String? = nil, scope: Scope = .global,
        limit: Int = LeaderboardRequest.defaultLimit, after: String? = nil, aroundMe: Bool = false
    ) {
        self.board = board
        self.activity = activity
        self.period = period
        self.key = key
        self.scope = scope
        self.limit = limit
        self.after = after
        self.aroundMe = aroundMe
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["board", "activity", "period", "key", "scope", "limit", "after", "around_me"])
        board = try fields.required(fields.choice("board", Board.self), "board")
        activity = try fields.string("activity", .activityReference)
        if board == .activity, activity == nil {
            throw .invalidArgument(field: "activity", message: "an activity board names its activity")
        }
        if board != .activity, activity != nil {
            throw .invalidArgument(field: "activity", message: "activity goes only with board activity")
        }
        period = try fields.choice("period", LeaderboardPeriod.self) ?? .week
        key = try fields.string("key", .identifier)
        scope = try fields.choice("scope", Scope.self) ?? .global
        limit = try fields.integer("limit", in: Self.limits) ?? Self.defaultLimit
        after = try fields.string("after", .identifier)
        aroundMe = try fields.bool("around_me") ?? false
        if aroundMe, after != nil {
            throw .invalidArgument(field: "after", message: "after goes with pages from the top, not with around_me")
        }
    }
}
