import Histogram
import LaurelCore

/// The figures of a finished run, merged over all connections: throughput, latency percentiles, errors by
/// code, the unlock check and what happened to the connections.
struct LoadReport: Sendable {
    let plan: LoadPlan
    let authenticated: Int
    /// Connections that failed, by kind, and one example message of the first failure.
    let connectionFailures: [String: Int]
    let firstFailure: String?
    /// Measured requests sent, acknowledged, and never answered.
    let sent: Int
    let acknowledged: Int
    let unanswered: Int
    let errors: [String: Int]
    /// How long the measured part of the run lasted, in seconds.
    let elapsedSeconds: Double
    let latency: Histogram<UInt32>
    /// Open loop: how late after their slots measured requests left (the client's own lag).
    let sendLag: Histogram<UInt32>
    let unlocks: UnlockCheck
    let unlockPushLatency: UnlockPushLatency
    let pushes: [String: Int]
    let byeReasons: [String: Int]
    /// Only with `--latency-timeline`.
    let latencyTimeline: LatencyTimeline?
    /// Soak runs: reconnects of all devices, and pushes that arrived twice across one.
    let reconnects: Int
    let repeatedPushes: Int

    init(plan: LoadPlan, outcome: LoadRunner.Outcome) {
        self.plan = plan
        let tallies = outcome.tallies
        authenticated = tallies.filter(\.isAuthenticated).count
        var failures: [String: Int] = [:]
        var errors: [String: Int] = [:]
        var pushes: [String: Int] = [:]
        var byes: [String: Int] = [:]
        var latency = Histogram<UInt32>(numberOfSignificantValueDigits: .three)
        var sendLag = Histogram<UInt32>(numberOfSignificantValueDigits: .three)
        var lastResponse: ContinuousClock.Instant?
        for tally in tallies {
            if let failure = tally.failure { failures[failure.rawValue, default: 0] += 1 }
            errors.merge(tally.errors, uniquingKeysWith: +)
            pushes.merge(tally.pushes, uniquingKeysWith: +)
            if let reason = tally.byeReason { byes[reason, default: 0] += 1 }
            latency.add(tally.latency)
            sendLag.add(tally.sendLag)
            if let last = tally.lastMeasuredResponse, lastResponse.map({ last > $0 }) ?? true { lastResponse = last }
        }
        connectionFailures = failures
        firstFailure = tallies.lazy.compactMap { tally in
            tally.failure.map { "\($0.rawValue): \(tally.failureDetail ?? "")" }
        }.first
        sent = tallies.reduce(0) { $0 + $1.sent }
        acknowledged = tallies.reduce(0) { $0 + $1.acknowledged }
        unanswered = tallies.reduce(0) { $0 + $1.unanswered }
        reconnects = tallies.reduce(0) { $0 + $1.reconnects }
        repeatedPushes = tallies.reduce(0) { $0 + $1.repeatedPushes }
        self.errors = errors
        self.pushes = pushes
        byeReasons = byes
        self.latency = latency
        self.sendLag = sendLag
        unlocks = UnlockCheck(tallies: tallies, expectedUnlock: plan.expectedUnlock)
        unlockPushLatency = UnlockPushLatency(tallies: tallies)
        latencyTimeline = plan.latencyTimelineSlice.map { LatencyTimeline(tallies: tallies, slice: $0) }

        var elapsed = Duration.zero
        if let window = outcome.window {
            if let lastResponse { elapsed = lastResponse - window.measureStart }
            // A duration run that lost its answers early still lasted the whole duration.
            if case .afterDuration(let duration) = plan.stop { elapsed = max(elapsed, duration) }
        }
        elapsedSeconds = elapsed.inSeconds
    }

    var logsPerSecond: Double {
        elapsedSeconds > 0 ? Double(acknowledged) / elapsedSeconds : 0
    }

    /// How late after their slots measured open-loop requests left, at a percentile, in milliseconds.
    func sendLagMilliseconds(atPercentile percentile: Double) -> Double {
        sendLag.totalCount == 0 ? 0 : Double(sendLag.valueAtPercentile(percentile)) / 1000
    }

    /// Latency at a percentile, in milliseconds.
    func latencyMilliseconds(atPercentile percentile: Double) -> Double {
        latency.totalCount == 0 ? 0 : Double(latency.valueAtPercentile(percentile)) / 1000
    }

    var maxLatencyMilliseconds: Double {
        latency.totalCount == 0 ? 0 : Double(latency.max) / 1000
    }
}
