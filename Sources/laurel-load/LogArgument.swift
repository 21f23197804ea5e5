import Foundation
import LaurelJSON
import LaurelProtocol
import NIOCore

/// The LOG requests of one connection: `l<n> LOG {"activity":…,"amount":1,"id":"load-<run>-<connection>-<n>"}`,
/// with an `"at"` some days back when the run backfills.
///
/// The tag carries the sequence number so a response finds its request without a lookup by string, and the
/// id is unique across runs, connections and requests, so no log is ever taken for a repeat of another.
struct LogRequestLine: Sendable {
    private let middle: String
    /// Backfilled runs: the n-th LOG is dated `n mod backfillDays + 1` days before the moment it is sent.
    private let backfillDays: Int

    init(activity: String, runID: String, connection: Int, backfillDays: Int = 0) {
        let activityJSON = JSONValue.string(activity).serialized()
        middle = " LOG {\"activity\":\(activityJSON),\"amount\":1,\"id\":\"load-\(runID)-\(connection)-"
        self.backfillDays = backfillDays
    }

    func buffer(sequence: Int) -> ByteBuffer {
        let number = String(sequence)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(middle.utf8.count + 2 * number.utf8.count + 40)
        buffer.writeString("l")
        buffer.writeString(number)
        buffer.writeString(middle)
        buffer.writeString(number)
        if backfillDays > 0 {
            let daysBack = sequence % backfillDays + 1
            buffer.writeString("\",\"at\":\"")
            buffer.writeString(Timestamp.format(Date().addingTimeInterval(-Double(daysBack) * 86_400)))
        }
        buffer.writeString("\"}")
        return buffer
    }

    static func authentication(token: String) -> ByteBuffer {
        let argument = JSONValue.object(["token": .string(token)]).serialized()
        return ByteBuffer(string: "a AUTH \(argument)")
    }

    static let authenticationTag: Substring = "a"
}
