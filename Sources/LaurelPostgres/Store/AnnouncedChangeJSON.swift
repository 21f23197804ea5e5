import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// A write's ``AnnouncedChange`` as it travels: written by the instance that commits it into its part of the batch
/// (`announce`), handed on untouched by `laurel.commit_changes` in the `committed` notification, and read by every
/// instance that hears it. Times are whole microseconds and rows have the shapes the store's own reads give them, so
/// that the change added is the one a catch-up would read.
///
/// The same object carries the pushes the write stored (`"pushes": [[kind, data], ...]`, each push's data as the
/// JSON text stored, in seq order), whether or not it announces a change: the instances that hear it deliver them
/// without reading them back. An object without `figures` announces pushes alone.
enum AnnouncedChangeJSON {
    /// The announcement of a write: its change, when there is one to announce, and the pushes it stores.
    static func write(_ change: AnnouncedChange?, pushes: [PushDraft] = [], into json: inout JSONWriter) {
        json.beginObject()
        if let change { writeMembers(of: change, into: &json) }
        if !pushes.isEmpty {
            json.key("pushes")
            json.beginArray()
            for push in pushes {
                json.beginArray()
                json.string(push.kind.rawValue)
                json.string(push.data)
                json.endArray()
            }
            json.endArray()
        }
        json.endObject()
    }

    private static func writeMembers(of change: AnnouncedChange, into json: inout JSONWriter) {
        switch change.fact {
        case .log(let log):
            json.key("log")
            json.beginObject()
            json.field("id", log.id)
            json.field("activity", log.activity)
            json.field("amount", log.amount)
            json.field("at_us", PostgresTimestamp.microseconds(log.at))
            json.field("day", log.day)
            json.field("hour", log.localHour)
            json.endObject()
        case .lesson(let lesson):
            json.key("lesson")
            json.beginObject()
            json.field("lesson", lesson.lesson)
            json.field("category", lesson.category)
            json.field("day", lesson.day)
            json.endObject()
        case .event(let event):
            json.key("event")
            json.beginObject()
            json.field("name", event.name)
            json.field("at_us", PostgresTimestamp.microseconds(event.at))
            json.endObject()
        case nil:
            break
        }
        json.key("unlocked")
        json.beginObject()
        for (id, at) in change.unlocked {
            json.key(runtime: id)
            json.int(PostgresTimestamp.microseconds(at))
        }
        json.endObject()
        json.key("challenges")
        json.beginArray()
        for (period, stored) in change.challenges {
            for challenge in stored { write(challenge, of: period, into: &json) }
        }
        json.endArray()
        json.key("figures")
        json.beginObject()
        UserCommitBatch.writeFields(of: change.figures, into: &json)
        json.endObject()
        if let available = change.allowance.available, let at = change.allowance.spentAt {
            json.key("allowance")
            json.beginArray()
            json.double(available)
            json.int(PostgresTimestamp.microseconds(at))
            json.endArray()
        }
        if let day = change.latestScores.day {
            json.field("latest_score_day", day)
            json.key("latest_scores")
            UserCommitBatch.write(change.latestScores.scores, into: &json)
        }
    }

    /// A stored challenge as `laurel.changes_since` makes a row of it.
    private static func write(_ challenge: StoredChallenge, of period: ChallengeBook.Period, into json: inout JSONWriter) {
        let choice = challenge.choice
        json.beginObject()
        json.field("period", period.kind.rawValue)
        json.field("start", period.start)
        json.field("slot", choice.slot)
        json.field("kind", choice.kind.rawValue)
        json.field("title", choice.title)
        json.field("target", choice.target)
        json.field("xp", choice.xp)
        json.field("activity_id", ifPresent: choice.activity)
        json.field("hour", ifPresent: choice.hour)
        json.field("completed_us", ifPresent: challenge.completedAt.map(PostgresTimestamp.microseconds))
        json.endObject()
    }
}
