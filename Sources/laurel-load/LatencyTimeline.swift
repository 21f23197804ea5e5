import Histogram
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
        /// Open loop: the latest any request of the slice left after its slot (nil in a closed loop).
        let sendLagMaxMilliseconds: Double?
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
        // The same histograms as the whole run's figures, one per slice.
        var bySlice: [Int: Histogram<UInt32>] = [:]
        for tally in tallies {
            for sample in tally.latencySamples {
                bySlice[Int(sample >> 32), default: Histogram(numberOfSignificantValueDigits: .three)]
                    .record(UInt64(UInt32(truncatingIfNeeded: sample)))
            }
        }
        var sendLagMax: [Int: UInt64] = [:]
        for tally in tallies {
            for sample in tally.sendLagSamples {
                sendLagMax[Int(sample >> 32), default: 0] = max(sendLagMax[Int(sample >> 32), default: 0], sample & 0xFFFF_FFFF)
            }
        }
        let last = bySlice.keys.max() ?? -1
        slices = last < 0 ? [] : (0...last).map { [sliceMilliseconds] index in
            let latencies = bySlice[index]
            func milliseconds(_ value: UInt64) -> Double { Double(value) / 1000 }
            return Slice(startMilliseconds: index * sliceMilliseconds, logs: Int(latencies?.totalCount ?? 0),
                         p50Milliseconds: latencies.map { milliseconds($0.valueAtPercentile(50)) },
                         p99Milliseconds: latencies.map { milliseconds($0.valueAtPercentile(99)) },
                         maxMilliseconds: latencies.map { milliseconds($0.max) },
                         sendLagMaxMilliseconds: sendLagMax[index].map(milliseconds))
        }
    }
}
