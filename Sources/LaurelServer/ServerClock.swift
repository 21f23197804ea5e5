import Foundation
import LaurelCore

/// The server's "now", to the whole millisecond: the wall clock shifted by a fixed offset. Production runs with no
/// offset; a test sets one to place the server in a week of its choosing (one with a daylight-saving change, a month
/// boundary) whatever the day it runs on. Only the server's decisions move: the database's own stamps (a token's or
/// a subscription's start) stay on its clock.
public struct ServerClock: Sendable {
    /// Whole milliseconds added to the wall clock.
    public var offsetMilliseconds: Int64

    public init(offsetMilliseconds: Int64 = 0) {
        self.offsetMilliseconds = offsetMilliseconds
    }

    /// A clock that reads `instant` now and runs on from there.
    public static func starting(at instant: Date) -> ServerClock {
        ServerClock(offsetMilliseconds: Int64((instant.timeIntervalSince(.nowInWholeMilliseconds) * 1000).rounded()))
    }

    public var now: Date {
        Date.nowInWholeMilliseconds.addingTimeInterval(Double(offsetMilliseconds) / 1000)
    }
}
