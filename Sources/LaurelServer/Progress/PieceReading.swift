import Foundation
import LaurelCore
import LaurelStore

/// Reads the pieces a decision asked for (``ProgressPiece``) in one snapshot of the user's stored state.
enum PieceReading {
    static func read(
        _ wanted: Set<ProgressPiece>, from reader: any UserReader, now: Date
    ) throws -> (challenges: [ChallengeBook.Period: [StoredChallenge]], pieces: LoadedPieces) {
        var pieces = LoadedPieces()
        var periods: [ChallengeBook.Period] = []
        for piece in wanted {
            switch piece {
            case .challenges(let period):
                periods.append(period)
            case .storedFact(let kind, let id):
                pieces.storedFacts[.init(kind, id)] = .some(try reader.storedFact(kind, id: id))
            case .log(let id):
                pieces.logs[id] = .some(try reader.log(id: id))
            case .neighbours(let activity, let around, let minutes):
                let reach = TimeInterval(minutes * 60)
                pieces.neighbours[activity] = try reader.logFacts(
                    activity: activity, from: around.addingTimeInterval(-reach), through: around.addingTimeInterval(reach))
            case .activityLogs(let activity):
                pieces.activityLogs[activity] = try reader.logFacts(activity: activity, from: .distantPast, through: .distantFuture)
            case .logsWithin(let start, let minutes):
                pieces.logsWithin[start] = try reader.logFacts(from: start, through: start.addingTimeInterval(TimeInterval(minutes * 60)))
            case .allFacts:
                pieces.allFacts = try reader.facts(after: FactSeqs()).facts
            case .weekStandings(let weeks, let boards):
                pieces.weekStandings = WeekStandings(
                    weeks: weeks, boards: boards, standings: try reader.weekStandings(weeks: weeks, boards: boards), readAt: now)
            }
        }
        // All periods in one statement: a backfill asks for every period of the window it lacks at once.
        return (try reader.challenges(of: periods), pieces)
    }
}
