import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// LEADERBOARD (rules.md and protocol.md, "Friends and leaderboards"): a page of a board key, read from the day scores
/// every write keeps (docs/leaderboards.md).
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
        let page: LeaderboardQuery.Page
        if request.aroundMe {
            page = .aroundAsker
        } else if let after = request.after {
            guard let cursor = LeaderboardCursor(after) else { throw ProtocolError.invalidArgument(field: "after", message: "after must be a next of this board") }
            page = .after(cursor)
        } else {
            page = .top
        }
        let read = try await context.store.leaderboard(LeaderboardQuery(
            board: board, key: key, days: request.period.days(ofKey: key), asker: context.user.id, friendsOnly: request.scope == .friends, limit: request.limit, page: page))

        var json = JSONWriter()
        json.beginObject()
        json.field("board", request.board.rawValue)
        if case .activity(let id) = board { json.field("activity", id) }
        json.field("period", request.period.rawValue)
        json.field("key", key)
        json.field("scope", request.scope.rawValue)
        json.key("entries")
        json.beginArray()
        for entry in read.entries { write(entry, into: &json) }
        json.endArray()
        json.key("me")
        if let me = read.me { write(me, into: &json) } else { json.null() }
        json.field("total", read.total)
        json.field("next", ifPresent: read.next?.description)
        json.endObject()
        return RequestOutcome(json: json)
    }

    /// `ENTRY = {"rank", "user", "user_id", "score", "reached_at"}`.
    private static func write(_ entry: LeaderboardEntry, into json: inout JSONWriter) {
        json.beginObject()
        json.field("rank", entry.rank)
        json.field("user", entry.name)
        json.field("user_id", entry.user.description)
        json.field("score", entry.score)
        json.field("reached_at", Timestamp.format(entry.reachedAt))
        json.endObject()
    }
}
