import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol

/// How a challenge looks on the wire (protocol.md `CHALLENGE`), in CHALLENGES answers and `CHALLENGE` pushes.
enum ChallengeRendering {
    static func write(_ challenge: StoredChallenge, progress: Int, into json: inout JSONWriter) {
        let choice = challenge.choice
        json.beginObject()
        json.field("id", choice.id)
        json.field("kind", choice.kind.rawValue)
        json.field("title", choice.title)
        json.field("target", choice.target)
        json.field("progress", min(progress, choice.target))
        json.field("xp", choice.xp)
        json.field("period", choice.period.rawValue)
        json.field("period_start", choice.periodStart)
        json.field("activity", ifPresent: choice.activity)
        json.field("completed_at", timestampIfPresent: challenge.completedAt)
        json.endObject()
    }

    /// `{"day", "week", "daily": [CHALLENGE], "weekly": [CHALLENGE]}` for `day`, its challenges as `daily` and its
    /// week's as `weekly` hold them, progress counted from `accumulator`.
    static func write(
        day: LocalDay, daily: [StoredChallenge], weekly: [StoredChallenge], accumulator: ProgressAccumulator, into json: inout JSONWriter
    ) {
        json.beginObject()
        json.field("day", day)
        json.field("week", day.isoWeek.description)
        for (name, challenges) in [("daily", daily), ("weekly", weekly)] as [(StaticString, [StoredChallenge])] {
            json.key(name)
            json.beginArray()
            for challenge in challenges {
                write(challenge, progress: ChallengeProgress.progress(of: challenge.choice, in: accumulator), into: &json)
            }
            json.endArray()
        }
        json.endObject()
    }
}
