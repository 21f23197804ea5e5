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
        let measures = decision.progress.liveMeasures(at: decision.decidedAt)
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
    ///
    /// One write through the buffer's memory: each of `ByteBuffer`'s own writes checks the buffer's uniqueness and its
    /// room (some 240 instructions), and a line took seven of them.
    static func line(_ push: StoredPush) -> ByteBuffer {
        var data = push.data
        let kind = push.kind.rawValue.utf8
        let seq = String(push.seq).utf8
        return data.withUTF8 { object in
            // "* ", the kind, " ", the object without its "}", ",", "\"seq\":", the number, "}"; and the LF.
            let room = object.count + kind.count + seq.count + 13
            var line = ByteBufferAllocator().buffer(capacity: room)
            line.writeWithUnsafeMutableBytes(minimumWritableBytes: room) { buffer in
                var out = Output(start: buffer.baseAddress!)
                out.append("* ")
                out.append(kind)
                out.append(" ")
                guard object.last == UInt8(ascii: "}") else {
                    out.append(object)
                    return out.count
                }
                let members = UnsafeBufferPointer(rebasing: object.dropLast())
                out.append(members)
                out.append(members.last == UInt8(ascii: "{") ? "\"seq\":" : ",\"seq\":")
                out.append(seq)
                out.append("}")
                return out.count
            }
            return line
        }
    }

    /// Bytes written one after the other into room made ahead.
    private struct Output {
        let start: UnsafeMutableRawPointer
        var count = 0

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            (start + count).copyMemory(from: base, byteCount: bytes.count)
            count += bytes.count
        }

        mutating func append(_ text: StaticString) {
            text.withUTF8Buffer { append($0) }
        }

        /// A short text (a kind, a number), byte by byte.
        mutating func append(_ text: String.UTF8View) {
            for byte in text {
                start.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
                count += 1
            }
        }
    }
}
