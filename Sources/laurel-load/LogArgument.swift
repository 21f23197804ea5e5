import Foundation
import LaurelJSON
import LaurelProtocol
import NIOCore

/// The argument of one connection's LOG requests: `{"activity":…,"amount":1,"id":"load-<run>-<connection>-<n>"}`,
/// with an `"at"` some days back when the run backfills. It is written straight into the request's line.
///
/// The id is unique across runs, connections and requests, so no log is ever taken for a repeat of another.
struct LogArgument: Sendable {
    private let start: String
    /// Backfilled runs: the n-th LOG is dated `n mod backfillDays + 1` days before the moment it is sent.
    private let backfillDays: Int

    init(activity: String, runID: String, connection: Int, backfillDays: Int = 0) {
        let activityJSON = JSONValue.string(activity).serialized()
        start = "{\"activity\":\(activityJSON),\"amount\":1,\"id\":\"load-\(runID)-\(connection)-"
        self.backfillDays = backfillDays
    }

    /// Writes the argument of the connection's `sequence`-th LOG.
    func write(sequence: Int, into buffer: inout ByteBuffer) {
        buffer.writeString(start)
        buffer.writeString(String(sequence))
        if backfillDays > 0 {
            let daysBack = sequence % backfillDays + 1
            buffer.writeString("\",\"at\":\"")
            buffer.writeString(Timestamp.format(Date().addingTimeInterval(-Double(daysBack) * 86_400)))
        }
        buffer.writeString("\"}")
    }
}

/// What each connection sends: LOGs with their own ids (``LogArgument``), or one fixed request over and over
/// (`--request`, such as `LEADERBOARD {"board":"logs","period":"week"}`), whose `OK` counts as acknowledged.
struct LoadRequest: Sendable {
    let verb: String
    private let log: LogArgument?
    private let fixedArgument: String?

    init(log: LogArgument) {
        verb = "LOG"
        self.log = log
        fixedArgument = nil
    }

    /// `line` is a verb, then optionally a space and its JSON argument.
    init(line: String) {
        let parts = line.split(separator: " ", maxSplits: 1)
        verb = parts.first.map(String.init) ?? ""
        log = nil
        fixedArgument = parts.count > 1 ? String(parts[1]) : nil
    }

    /// Whether the connection sends anything after the verb.
    var hasArgument: Bool { log != nil || fixedArgument != nil }

    /// Writes the argument of the connection's `sequence`-th request.
    func write(sequence: Int, into buffer: inout ByteBuffer) {
        if let log {
            log.write(sequence: sequence, into: &buffer)
        } else if let fixedArgument {
            buffer.writeString(fixedArgument)
        }
    }
}
