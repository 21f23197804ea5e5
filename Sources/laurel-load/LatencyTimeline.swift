import LaurelCore

/// The latency of measured LOGs slice by slice of the measurement (`--latency-timeline 1s`, `100ms`), each LOG in
/// the slice it was sent in (its intended send time in the open loop). A whole-run p99 cannot tell a tail spread
/// evenly over the run from a stall in its first second; this can.
struct LatencyTimeline: Sendable {
    /// One slice: how many LOGs sent in it were acknowledged, and their latencies (nil when none was: a slice
    /// whose LOGs all went unanswered is listed too, since that is the stall a timeline is for).
    struct Slice: Sendable {
        let startMilliseconds: Int
        let logs: Int
        let p50Milliseconds: Double?
        let p99Milliseconds: Double?
        let maxMilliseconds: Double?
    }

    let sliceMilliseconds: Int
    let slices: [Slice]

    /// Packs one sample as a connection records it: the slice in the high half, microseconds in the low half, so
    /// that a connection keeps one word per acknowledged LOG.
    static func sample(sentAt: ContinuousClock.Instant, measureStart: ContinuousClock.Instant, slice: Duration,
                       latencyMicroseconds: UInt64) -> UInt64 {
        let index = UInt64(max(0, ((sentAt - measureStart) / slice).rounded(.down)))
        return index << 32 | min(latencyMicroseconds, UInt64(UInt32.max))
    }

    init(tallies: [ConnectionTally], slice: Duration) {
        sliceMilliseconds = Int((slice / .milliseconds(1)).rounded())
        var bySlice: [Int: [UInt32]] = [:]
        for tally in tallies {
            for sample in tally.latencySamples {
                bySlice[Int(sample >> 32), default: []].append(UInt32(truncatingIfNeeded: sample))
            }
        }
        let last = bySlice.keys.max() ?? -1
        slices = last < 0 ? [] : (0...last).map { [sliceMilliseconds] index in
            let latencies = (bySlice[index] ?? []).sorted()
            func at(_ percentile: Double) -> Double? {
                guard !latencies.isEmpty else { return nil }
                let rank = Int((percentile / 100 * Double(latencies.count)).rounded(.up)) - 1
                return Double(latencies[min(max(rank, 0), latencies.count - 1)]) / 1000
            }
            return Slice(startMilliseconds: index * sliceMilliseconds, logs: latencies.count, p50Milliseconds: at(50),
                         p99Milliseconds: at(99), maxMilliseconds: latencies.last.map { Double($0) / 1000 })
        }
    }
}
