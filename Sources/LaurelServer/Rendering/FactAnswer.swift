import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// The answer LOG, LESSON.DONE and EVENT share: `{"log": FACT, "duplicate", "unlocked", "xp", "level", "streak"}`.
/// It is kept with the fact, so a retry with the same id gets the first answer back, marked as a duplicate.
enum FactAnswer {
    /// The answer to a decided fact: a new one's, or a retry's first answer. `pushes` are the decision's
    /// (``PushRendering/drafts(for:rules:rarity:)``): its UNLOCK pushes carry the very objects `unlocked` lists.
    /// The JSON text's UTF-8, handed on as the writer made it (a `String` of it would check it once more).
    static func bytes(for decision: Decision, pushes: [PushDraft]) -> [UInt8]? {
        switch decision.outcome {
        case .recorded(let fact): return new(fact, decision: decision, pushes: pushes).finish()
        case .replayed(let first): return Array(replay(first).utf8)
        default: return nil
        }
    }

    private static func new(_ fact: NewFact, decision: Decision, pushes: [PushDraft]) -> JSONWriter {
        var json = JSONWriter(capacity: 320)
        json.beginObject()
        json.key("log")
        write(fact, into: &json)
        json.field("duplicate", false)
        json.key("unlocked")
        json.beginArray()
        // The decision's unlocks, in its events' order, as their pushes show them (written once for both).
        for push in pushes where push.kind == .unlock { json.raw(push.data) }
        json.endArray()
        let figures = decision.figures
        json.field("xp", figures.xp)
        json.field("level", figures.level)
        json.key("streak")
        StreakRendering.write(figures.shownStreak, into: &json)
        json.endObject()
        return json
    }

    /// The fact as the answer shows it: a LOG (`{"id", "activity", "amount", "at", "day", "note"?}`), a lesson
    /// completion (`{"id", "lesson", "at", "day"}`) or an event (`{"id", "event", "at", "day"}`).
    static func write(_ fact: NewFact, into json: inout JSONWriter) {
        json.beginObject()
        json.field("id", fact.id)
        switch fact.content {
        case .log(let activity, let amount, _, _):
            json.field("activity", activity)
            json.field("amount", amount)
        case .lesson(let lesson):
            json.field("lesson", lesson.id)
        case .event(let name):
            json.field("event", name)
        case .reminder:
            break
        }
        json.field("at", timestamp: fact.at)
        json.field("day", fact.day)
        if case .log(_, _, _, let note) = fact.content { json.field("note", ifPresent: note) }
        json.endObject()
    }

    /// The first answer, marked as a duplicate. The answer is an object whose `"duplicate":false` member comes right
    /// after the fact; a quote inside a string is always escaped, so the first such bytes are that member.
    static func replay(_ first: String) -> String {
        guard let range = first.range(of: "\"duplicate\":false") else { return first }
        return first.replacingCharacters(in: range, with: "\"duplicate\":true")
    }
}

enum LogRendering {
    /// `{"id", "activity", "amount", "at", "day", "note"?}`.
    static func write(id: String, activity: String, amount: Int, at: Date, day: LocalDay, note: String?, into json: inout JSONWriter) {
        json.beginObject()
        json.field("id", id)
        json.field("activity", activity)
        json.field("amount", amount)
        json.field("at", timestamp: at)
        json.field("day", day)
        json.field("note", ifPresent: note)
        json.endObject()
    }
}
