import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// LEADERBOARD (rules.md and protocol.md, "Friends and leaderboards"): a page of a board key, ranked by the keys this
/// instance holds in memory (``LoadedBoards``) from the day scores every write keeps (docs/leaderboards.md).
enum LeaderboardRequests {
    static func leaderboard(_ request: LeaderboardRequest, in context: RequestContext) async throws -> RequestOutcome {
        let now = context.now
        let progress = try await context.sessionProgress(now: now).progress
        let board: LeaderboardBoard
        switch request.board {
        case .xp: board = .xp
        case .logs: board = .logs
        case .challenges: board = .challenges
        case .activity:
            let reference = request.activity ?? ""
            guard let activity = context.catalog.builtinActivity(named: reference) else {
                if progress.customActivity(reference) != nil {
                    throw ProtocolError.invalidArgument(field: "activity", message: "custom activities have no boards; built-in ones do")
                }
                throw ProtocolError.notFound(field: "activity", message: "no built-in activity \(reference)")
            }
            board = .activity(activity.id)
        }
        let today = progress.today(at: now)
        let key = request.key ?? request.period.key(of: today)
        guard request.period.isReadable(key: key, today: today) else {
            throw ProtocolError.invalidArgument(
                field: "key", message: "\(key) is not a \(request.period.rawValue) key of now or of the last \(LeaderboardPeriod.readableDays) days")
        }
        let start: RankedBoard.PageStart
        if request.aroundMe {
            start = .aroundAsker
        } else if let after = request.after {
            guard let cursor = LeaderboardCursor(after) else { throw ProtocolError.invalidArgument(field: "after", message: "after must be a next of this board") }
            start = .after(BoardStanding(score: cursor.score, reachedMicroseconds: cursor.reachedMicroseconds, user: cursor.user))
        } else {
            start = .top
        }
        let asker = context.user.id
        let friends = request.scope == .friends ? try await context.store.friendNames(of: asker) : nil
        let read = try await context.services.boards.page(
            of: BoardKey(board: board, period: request.period, key: key), current: key == request.period.key(of: today), asker: asker,
            friends: friends.map { Set($0.keys) },
            start: start, limit: request.limit)
        var names = friends ?? [:]
        names[asker] = context.user.name
        let unnamed = read.entries.map(\.standing.user).filter { names[$0] == nil }
        if !unnamed.isEmpty { names.merge(try await context.store.userNames(unnamed)) { first, _ in first } }

        var json = JSONWriter()
        json.beginObject()
        json.field("board", request.board.rawValue)
        if case .activity(let id) = board { json.field("activity", id) }
        json.field("period", request.period.rawValue)
        json.field("key", key)
        json.field("scope", request.scope.rawValue)
        json.key("entries")
        json.beginArray()
        for entry in read.entries { write(entry, name: names[entry.standing.user] ?? "", into: &json) }
        json.endArray()
        json.key("me")
        if let me = read.asker { write(me, name: context.user.name, into: &json) } else { json.null() }
        json.field("total", read.total)
        if read.hasMore, let last = read.entries.last {
            json.field("next", LeaderboardCursor(
                score: last.standing.score, reachedMicroseconds: last.standing.reachedMicroseconds, user: last.standing.user, rank: last.rank
            ).description)
        }
        json.endObject()
        return RequestOutcome(json: json)
    }

    /// `ENTRY = {"rank", "user", "user_id", "score", "reached_at"}`.
    private static func write(_ entry: RankedBoard.RankedStanding, name: String, into json: inout JSONWriter) {
        json.beginObject()
        json.field("rank", entry.rank)
        json.field("user", name)
        json.field("user_id", entry.standing.user.description)
        json.field("score", entry.standing.score)
        json.field("reached_at", timestamp: entry.standing.reachedAt)
        json.endObject()
    }
}
