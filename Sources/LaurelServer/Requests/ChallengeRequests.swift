import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// CHALLENGES: the user's daily and weekly challenges with their progress. Today's come from the session's board,
/// chosen now in one statement if nobody chose them yet (a write, so the verb runs in the user's turn); challenges
/// chosen after facts that already reach them are completed on the transactional path. A past day's are read as
/// stored, with progress counted over that period's facts as they are now.
enum ChallengeRequests {
    static func challenges(_ request: ChallengesRequest, in context: RequestContext) async throws -> RequestOutcome {
        let now = Date()
        let zone = try await context.sessionProgress(now: now).context.zone
        let today = LocalDay(of: now, in: zone)
        let day = request.day ?? today
        guard day <= today, day >= today.adding(days: -ChallengesRequest.pastDays) else {
            throw ProtocolError.invalidArgument(
                field: "day", message: "challenges can be read for today and the \(ChallengesRequest.pastDays) days before")
        }
        if day < today {
            let board = try await context.read { records in try ChallengeBoard.stored(day: day, records: records) }
            return RequestOutcome(answer(board))
        }
        let progress = try await context.sessionProgressWithChallenges(now: now, storingChoices: true).progress
        if let board = progress.challengeBoard, board.day == LocalDay(of: now, in: progress.context.zone), board.unchosen.isEmpty,
           !board.hasReachedOpenChallenge {
            return RequestOutcome(answer(board))
        }
        let engine = context.engine
        let (board, pushes) = try await context.transaction { records -> (ChallengeBoard, [StoredPush]) in
            let evaluation = try engine.evaluate(.challengesNeeded, in: records, now: now)
            let board = try ChallengeBoard.stored(day: today, records: records)
            return (board, evaluation.pushes)
        }
        return RequestOutcome(answer(board), pushes: pushes)
    }

    private static func answer(_ board: ChallengeBoard) -> JSONValue {
        let (daily, weekly) = (board.rendered(.daily), board.rendered(.weekly))
        return [
            "day": .string(board.day.description), "week": .string(board.day.isoWeek.description),
            "daily": .array(daily.map(JSONValue.object)), "weekly": .array(weekly.map(JSONValue.object)),
        ]
    }
}
