import Foundation
import LaurelJSON
import NIOCore

/// The requests of one device in a soak run (`--soak`), a fixed mix by sequence number so every run does the same
/// work: of every 20, 14 LOGs of now, 2 backfilled LOGs (1 to 25 days back), and one each of PROFILE,
/// ACHIEVEMENTS, LOGS and CHALLENGES. Tags are `l<n>` like the other runs', and a LOG's id names its run,
/// connection and number, so a LOG sent again after a reconnect is the same LOG.
struct SoakRequestLine: Sendable {
    let logs: LogRequestLine
    let backfills: LogRequestLine

    init(activity: String, runID: String, connection: Int) {
        logs = LogRequestLine(activity: activity, runID: runID, connection: connection)
        backfills = LogRequestLine(activity: activity, runID: runID, connection: connection, backfillDays: 25)
    }

    static let reads = ["PROFILE", "ACHIEVEMENTS", "LOGS", "CHALLENGES"]

    func buffer(sequence: Int) -> ByteBuffer {
        switch sequence % 20 {
        case 0..<14: return logs.buffer(sequence: sequence)
        case 14..<16: return backfills.buffer(sequence: sequence)
        default: return ByteBuffer(string: "l\(sequence) \(Self.reads[sequence % 20 - 16])")
        }
    }

    /// AUTH for a device that saw pushes up to `lastSeq`: the server replays what came after, so none is missed
    /// or repeated across the reconnect.
    static func authentication(token: String, resumeAfter lastSeq: Int) -> ByteBuffer {
        let argument = JSONValue.object(["token": .string(token), "resume_after": .int(lastSeq)]).serialized()
        return ByteBuffer(string: "a AUTH \(argument)")
    }
}
