import Histogram
import LaurelCore
import LaurelJSON
import LaurelProtocol

/// Everything one connection observed: how far it got, its measured requests and their latencies, the
/// errors by code, and the pushes it received. The report merges the tallies of all connections.
struct ConnectionTally: Sendable {
    /// Why a connection took no part in the load, or left it early.
    enum Failure: String, Sendable {
        /// The TCP connection could not be opened.
        case connect
        /// The server closed the connection, or greeted oddly, before AUTH was answered.
        case handshake
        /// AUTH was answered with an error.
        case auth
        /// The connection was closed by the server (or broke) while the load was running.
        case closedDuringLoad = "closed_during_load"
    }

    let index: Int
    let userIndex: Int
    var isAuthenticated = false
    var failure: Failure?
    var failureDetail: String?
    /// The reason of a `* BYE` the server sent, if any.
    var byeReason: String?

    /// Measured requests sent, acknowledged, answered with an error, and never answered.
    var sent = 0
    var acknowledged = 0
    var errors: [String: Int] = [:]
    var unanswered = 0
    /// Latency of measured acknowledged requests, in microseconds. It starts small (an idle connection records
    /// nothing) and is given its full range by `prepareForLoad(sendLag:)`.
    var latency = Histogram<UInt32>(numberOfSignificantValueDigits: .three)
    var lastMeasuredResponse: ContinuousClock.Instant?
    /// With `--latency-timeline`, when the measurement starts and how long a slice is; each measured acknowledged
    /// LOG then also goes into `latencySamples` (see `LatencyTimeline`).
    var timeline: (measureStart: ContinuousClock.Instant, slice: Duration)?
    var latencySamples: [UInt64] = []
    /// Open loop: how late after its slot each measured request left, in microseconds (the client's own lag, which
    /// the latency above includes), and with `--latency-timeline` the same slice by slice.
    var sendLag = Histogram<UInt32>(numberOfSignificantValueDigits: .three)
    var sendLagSamples: [UInt64] = []

    /// Whether any LOG of this connection was acknowledged, warm-up included.
    var hasLogged = false
    /// Achievement ids that the responses to this connection's LOGs reported as unlocked, each with the send time
    /// of the LOG that unlocked it (its intended send time in the open loop), warm-up included.
    var reportedUnlocks: [String: ContinuousClock.Instant] = [:]
    /// UNLOCK pushes received, by achievement id.
    var unlockPushes: [String: Int] = [:]
    /// When the first UNLOCK push of each achievement arrived.
    var unlockArrivals: [String: ContinuousClock.Instant] = [:]
    /// Pushes received, by kind.
    var pushes: [String: Int] = [:]
    /// Soak runs: how often the device connected again, and pushes that came again after a reconnect (a `seq` at or
    /// below one seen before), which resuming must prevent.
    var reconnects = 0
    var repeatedPushes = 0

    init(index: Int, userIndex: Int) {
        self.index = index
        self.userIndex = userIndex
    }

    /// Latencies up to this are recorded without the histogram growing.
    static let presizedLatencyMicroseconds: UInt64 = 60_000_000

    /// Gives the latency histogram its whole range before the load starts. Growing it while recording costs a
    /// millisecond or more per connection (the histogram's growth runs unspecialised generic code), and a thousand
    /// connections all growing theirs at the first measured answers stalled the client, and with it the server
    /// sharing its cores, for about a second.
    /// `sendLag`: the open loop's too, which records when each request left (the closed loop records none).
    ///
    /// Each histogram its own: one presized histogram given to both shared its counts, so the first record into
    /// either (the open loop's first send) copied them, some 70 KB of fresh memory a connection, 140 MB over the
    /// open loop's 2,000 connections in its first 0.4 s.
    mutating func prepareForLoad(sendLag presizeSendLag: Bool) {
        latency = Self.presizedHistogram()
        if presizeSendLag { sendLag = Self.presizedHistogram() }
    }

    private static func presizedHistogram() -> Histogram<UInt32> {
        var presized = Histogram<UInt32>(highestTrackableValue: presizedLatencyMicroseconds, numberOfSignificantValueDigits: .three)
        presized.autoResize = true
        return presized
    }

    /// Records how late a measured open-loop request sent at `sentAt` (its slot) left.
    mutating func recordSendLag(_ microseconds: UInt64, sentAt: ContinuousClock.Instant) {
        sendLag.record(microseconds)
        if let timeline {
            sendLagSamples.append(LatencyTimeline.sample(
                sentAt: sentAt, measureStart: timeline.measureStart, slice: timeline.slice, latencyMicroseconds: microseconds))
        }
    }

    mutating func fail(_ failure: Failure, _ detail: String) {
        guard self.failure == nil else { return }
        self.failure = failure
        failureDetail = detail
    }

    /// Records the answer to a LOG sent (or meant to be sent) at `sentAt`; returns whether it was acknowledged.
    @discardableResult
    mutating func recordResponse(_ line: ServerLine, sentAt: ContinuousClock.Instant, measured: Bool, at now: ContinuousClock.Instant) -> Bool {
        let unlocked = line.isOK ? line.unlockedIDs : []
        let code = line.isOK ? nil : (line.kind == "ERR" ? line.loadErrorCode : "malformed_response")
        return recordAnswer(errorCode: code, unlocked: unlocked, sentAt: sentAt, measured: measured, at: now)
    }

    /// Records an answer: acknowledged (`errorCode` nil, with the achievements it unlocked) or an error.
    @discardableResult
    mutating func recordAnswer(
        errorCode: String?, unlocked: [String], sentAt: ContinuousClock.Instant, measured: Bool, at now: ContinuousClock.Instant
    ) -> Bool {
        if errorCode == nil {
            hasLogged = true
            for id in unlocked where reportedUnlocks[id] == nil { reportedUnlocks[id] = sentAt }
            if measured {
                acknowledged += 1
                let microseconds = (now - sentAt).wholeMicroseconds
                latency.record(microseconds)
                if let timeline {
                    latencySamples.append(LatencyTimeline.sample(
                        sentAt: sentAt, measureStart: timeline.measureStart, slice: timeline.slice, latencyMicroseconds: microseconds))
                }
                lastMeasuredResponse = now
            }
            return true
        }
        if measured, let errorCode {
            errors[errorCode, default: 0] += 1
            lastMeasuredResponse = now
        }
        return false
    }

    /// Records an untagged line received at `now`: a push, or an error that belongs to no request.
    mutating func recordUntagged(_ line: ServerLine, at now: ContinuousClock.Instant) {
        if line.kind == "ERR" {
            errors[line.loadErrorCode, default: 0] += 1
            return
        }
        let kind = String(line.kind)
        pushes[kind, default: 0] += 1
        switch kind {
        case "UNLOCK":
            let id = line.unlockPushID ?? "(no id)"
            unlockPushes[id, default: 0] += 1
            if unlockArrivals[id] == nil { unlockArrivals[id] = now }
        case "BYE":
            byeReason = line.value?["reason"]?.stringValue ?? "unknown"
        default:
            break
        }
    }

    mutating func recordLineTooLong() {
        errors["line_too_long", default: 0] += 1
    }
}
