import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// How a challenge looks on the wire (protocol.md `CHALLENGE`), in CHALLENGES answers and `CHALLENGE` pushes.
enum ChallengeRendering {
    static func object(_ challenge: StoredChallenge, progress: Int) -> JSONObject {
        let choice = challenge.choice
        var object: JSONObject = [
            "id": .string(choice.id), "kind": .string(choice.kind.rawValue), "title": .string(choice.title),
            "target": .int(choice.target), "progress": .int(min(progress, choice.target)), "xp": .int(choice.xp),
            "period": .string(choice.period.rawValue), "period_start": .string(choice.periodStart.description),
        ]
        if let activity = choice.activity { object["activity"] = .string(activity) }
        if let completed = challenge.completedAt { object["completed_at"] = .string(Timestamp.format(completed)) }
        return object
    }
}
