import Foundation
import LaurelCore

/// A board key as one user asks for it: the board and key, whose board (everyone who did not opt out, or the asker and
/// the asker's friends), and which page.
public struct LeaderboardQuery: Sendable, Equatable {
    public enum Page: Sendable, Equatable {
        /// From the top.
        case top
        /// After an entry of an earlier page.
        case after(LeaderboardCursor)
        /// The entries around the asker (the first page when the asker has no score).
        case aroundAsker
    }

    public var board: LeaderboardBoard
    public var key: String
    /// The key's local days, whose scores make the board's; nil for `all`.
    public var days: ClosedRange<LocalDay>?
    public var asker: UserID
    public var friendsOnly: Bool
    public var limit: Int
    public var page: Page

    public init(board: LeaderboardBoard, key: String, days: ClosedRange<LocalDay>?, asker: UserID, friendsOnly: Bool, limit: Int, page: Page) {
        self.board = board
        self.key = key
        self.days = days
        self.asker = asker
        self.friendsOnly = friendsOnly
        self.limit = limit
        self.page = page
    }
}

/// Where a page ended: the last entry's place in the order (score, then `reached_at` to the microsecond, then user id)
/// and its rank. As text, `score.reached_us.user_id.rank`: an opaque `next` to clients.
public struct LeaderboardCursor: Sendable, Hashable, CustomStringConvertible {
    public var score: Int
    public var reachedMicroseconds: Int
    public var user: UserID
    public var rank: Int

    public init(score: Int, reachedMicroseconds: Int, user: UserID, rank: Int) {
        self.score = score
        self.reachedMicroseconds = reachedMicroseconds
        self.user = user
        self.rank = rank
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, let score = Int(parts[0]), let reached = Int(parts[1]), let user = Int64(parts[2]), let rank = Int(parts[3]),
              score > 0, rank > 0 else { return nil }
        self.init(score: score, reachedMicroseconds: reached, user: UserID(user), rank: rank)
    }

    public var description: String { "\(score).\(reachedMicroseconds).\(user.rawValue).\(rank)" }
}

/// One user's place on a board.
public struct LeaderboardEntry: Sendable, Equatable {
    public var rank: Int
    public var user: UserID
    public var name: String
    public var score: Int
    public var reachedAt: Date
    /// Where a page ending with this entry ends.
    public var cursor: LeaderboardCursor

    public init(rank: Int, user: UserID, name: String, score: Int, reachedAt: Date, cursor: LeaderboardCursor) {
        self.rank = rank
        self.user = user
        self.name = name
        self.score = score
        self.reachedAt = reachedAt
        self.cursor = cursor
    }
}

/// A page of a board: its entries, the asker's entry (nil without a score there, or opted out of a global board), the
/// number of users on the board, and where the next page starts when there is one.
public struct LeaderboardPage: Sendable, Equatable {
    public var entries: [LeaderboardEntry]
    public var me: LeaderboardEntry?
    public var total: Int
    public var next: LeaderboardCursor?

    public init(entries: [LeaderboardEntry], me: LeaderboardEntry?, total: Int, next: LeaderboardCursor?) {
        self.entries = entries
        self.me = me
        self.total = total
        self.next = next
    }
}
