import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore
import NIOCore

/// How pushes look: the stored pushes a decision's events make (their objects as JSON text), and a stored push on the
/// wire, `* KIND {...data, "seq": n}`.
enum PushRendering {
    /// The pushes that tell about a decision, in its events' order.
    static func drafts(for decision: Decision, rules: Rulebook, rarity: RarityTable) -> [PushDraft] {
        guard !decision.events.isEmpty else { return [] }
        let measures = decision.progress.measures(at: decision.decidedAt)
        return decision.events.compactMap { event in
            var json = JSONWriter()
            let kind: PushKind
            switch event {
            case .unlocked(let id):
                guard let view = AchievementView.one(id, of: decision.progress, at: decision.decidedAt, measures: measures) else { return nil }
                view.write(into: &json, rarity: rarity)
                kind = .unlock
            case .challengeCompleted(let challenge):
                ChallengeRendering.write(challenge, progress: challenge.choice.target, into: &json)
                kind = .challenge
            case .levelReached(let level, let xp):
                json.beginObject()
                json.field("level", level)
                json.field("xp", xp)
                json.endObject()
                kind = .level
            case .streak(let change, let streak):
                json.beginObject()
                json.field("event", change.rawValue)
                json.key("streak")
                StreakRendering.write(streak, into: &json)
                json.endObject()
                kind = .streak
            case .weeklyGoalMet(let streak):
                json.beginObject()
                json.field("week", streak.week.description)
                json.key("weekly_streak")
                StreakRendering.write(streak, into: &json)
                json.endObject()
                kind = .goal
            }
            return PushDraft(kind: kind, data: json.text)
        }
    }

    /// A stored push as a line: its object with `"seq"` added at the end, written straight into the line's buffer
    /// with room for the line feed (every connection of the user renders every push).
    static func line(_ push: StoredPush) -> ByteBuffer {
        var data = push.data
        return data.withUTF8 { object in
            var line = ByteBufferAllocator().buffer(capacity: object.count + push.kind.rawValue.utf8.count + 32)
            line.writeStaticString("* ")
            line.writeString(push.kind.rawValue)
            line.writeInteger(UInt8(ascii: " "))
            guard object.last == UInt8(ascii: "}") else {
                line.writeBytes(object)
                return line
            }
            let members = UnsafeBufferPointer(rebasing: object.dropLast())
            line.writeBytes(members)
            if members.last != UInt8(ascii: "{") { line.writeInteger(UInt8(ascii: ",")) }
            line.writeStaticString("\"seq\":")
            line.writeString(String(push.seq))
            line.writeInteger(UInt8(ascii: "}"))
            return line
        }
    }
}
