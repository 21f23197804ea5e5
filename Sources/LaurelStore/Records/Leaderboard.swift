import Foundation
import LaurelCore

/// One user's score on a board key as stored: the sum of the key's day scores (0 when the user has none), the latest
/// rise among the days that still score, whether the user opted out of global boards, and the user's version when
/// it was read.
public struct StoredStanding: Sendable, Equatable {
    public var user: UserID
    public var entry: RankedBoard.Entry

    public init(user: UserID, entry: RankedBoard.Entry) {
        self.user = user
        self.entry = entry
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
