import Histogram
import LaurelCore

/// How long an unlock takes to reach the user's other devices: for every achievement a LOG answer reported as
/// unlocked, the time from that LOG's send time to the UNLOCK push arriving on each *other* connection of the
/// same user. It needs users with at least two connections (`--connections` a multiple of `--users` above 1);
/// with one connection per user there is nothing to measure and no samples.
///
/// The send time is the one the latency figures use: the moment the request was written in the closed loop, its
/// intended send time in the open loop. Unlocks of the warm-up count too, since most happen at a user's first log.
struct UnlockPushLatency: Sendable {
    /// Microseconds, like the request latencies.
    private(set) var histogram = Histogram<UInt32>(numberOfSignificantValueDigits: .three)

    init(tallies: [ConnectionTally]) {
        var connectionsOfUser: [Int: [Int]] = [:]
        for (position, tally) in tallies.enumerated() where tally.isAuthenticated {
            connectionsOfUser[tally.userIndex, default: []].append(position)
        }
        for cause in tallies where cause.isAuthenticated {
            for (achievement, sentAt) in cause.reportedUnlocks {
                for position in connectionsOfUser[cause.userIndex] ?? [] where tallies[position].index != cause.index {
                    if let arrival = tallies[position].unlockArrivals[achievement] {
                        histogram.record((arrival - sentAt).wholeMicroseconds)
                    }
                }
            }
        }
    }

    var samples: Int { Int(histogram.totalCount) }

    /// Latency at a percentile in milliseconds; nil without samples.
    func milliseconds(atPercentile percentile: Double) -> Double? {
        samples == 0 ? nil : Double(histogram.valueAtPercentile(percentile)) / 1000
    }

    var maxMilliseconds: Double? {
        samples == 0 ? nil : Double(histogram.max) / 1000
    }
}
