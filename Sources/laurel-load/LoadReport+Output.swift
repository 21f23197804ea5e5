import Foundation
import LaurelCore
import LaurelJSON

extension LoadReport {
    /// The report as one JSON object, for scripts.
    var json: JSONValue {
        var latencyObject: JSONObject = [:]
        for (name, percentile) in [("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p999", 99.9)] {
            latencyObject[name] = .double(Self.rounded(latencyMilliseconds(atPercentile: percentile)))
        }
        latencyObject["max"] = .double(Self.rounded(maxLatencyMilliseconds))
        var object: JSONObject = [
            "run_id": .string(plan.runID),
            "mode": .string(plan.modeName),
            "rate": plan.rate.map { .double($0) } ?? .null,
            "pipeline": .int(plan.pipeline),
            "users": .int(plan.users),
            "connections": .int(plan.connections),
            "authenticated": .int(authenticated),
            "duration_s": .double(Self.rounded(elapsedSeconds)),
            "warmup_s": .double(Self.rounded(plan.warmup.inSeconds)),
            "sent": .int(sent),
            "acknowledged": .int(acknowledged),
            "logs_per_second": .double(Self.rounded(logsPerSecond)),
            "latency_ms": .object(latencyObject),
            "errors": Self.counts(errors),
            "unanswered": .int(unanswered),
        ]
        if plan.rate != nil {
            var sendLagObject: JSONObject = [:]
            for (name, percentile) in [("p50", 50.0), ("p99", 99.0), ("max", 100.0)] {
                sendLagObject[name] = .double(Self.rounded(sendLagMilliseconds(atPercentile: percentile)))
            }
            object["send_lag_ms"] = .object(sendLagObject)
        }
        object["unlocks"] = .object([
            "expected": .int(unlocks.expected),
            "pushed": .int(unlocks.pushed),
            "duplicates": .int(unlocks.duplicates),
            "missing": .int(unlocks.missing),
            "unexpected": .int(unlocks.unexpected),
            "exactly_once": .bool(unlocks.isExactlyOnce),
        ])
        var unlockPushObject: JSONObject = ["samples": .int(unlockPushLatency.samples)]
        for (name, percentile) in [("p50", 50.0), ("p90", 90.0), ("p99", 99.0)] {
            unlockPushObject[name] = unlockPushLatency.milliseconds(atPercentile: percentile).map { .double(Self.rounded($0)) } ?? .null
        }
        unlockPushObject["max"] = unlockPushLatency.maxMilliseconds.map { .double(Self.rounded($0)) } ?? .null
        object["unlock_push_latency_ms"] = .object(unlockPushObject)
        object["pushes"] = Self.counts(pushes)
        object["connection_failures"] = Self.counts(connectionFailures)
        object["bye_reasons"] = Self.counts(byeReasons)
        if case .soak = plan.pace {
            object["reconnects"] = .int(reconnects)
            object["repeated_pushes"] = .int(repeatedPushes)
        }
        if let latencyTimeline {
            object["latency_timeline"] = .object([
                "slice_ms": .int(latencyTimeline.sliceMilliseconds),
                "slices": .array(latencyTimeline.slices.map { slice in
                    var sliceObject: JSONObject = [
                        "start_ms": .int(slice.startMilliseconds), "logs": .int(slice.logs),
                        "p50": Self.milliseconds(slice.p50Milliseconds), "p99": Self.milliseconds(slice.p99Milliseconds),
                        "max": Self.milliseconds(slice.maxMilliseconds),
                    ]
                    if let lag = slice.sendLagMaxMilliseconds { sliceObject["send_lag_max"] = Self.milliseconds(lag) }
                    return .object(sliceObject)
                }),
            ])
        }
        return .object(object)
    }

    /// The report for people.
    var text: String {
        let milliseconds = { (value: Double) in String(format: "%.3f", value) }
        var lines: [String] = []
        let pace = switch plan.pace {
        case .closedLoop(let pipeline): "closed loop, pipeline \(pipeline)"
        case .openLoop(let rate): "open loop at \(Self.number(rate)) logs/s"
        case .idle: "idle connections"
        case .soak(let rate, let reconnectEvery): "soak at \(Self.number(rate)) requests/s, reconnecting every \(reconnectEvery)"
        }
        lines.append("laurel-load run \(plan.runID): \(pace), \(plan.connections) connections over \(plan.users) users")
        lines.append("  measured     \(String(format: "%.2f", elapsedSeconds)) s"
            + (plan.warmup > .zero ? " after \(String(format: "%.2f", plan.warmup.inSeconds)) s of warm-up" : ""))
        lines.append("  throughput   \(String(format: "%.1f", logsPerSecond)) logs/s (\(acknowledged) acknowledged of \(sent) sent"
            + (unanswered > 0 ? ", \(unanswered) unanswered)" : ")"))
        lines.append("  latency ms   p50 \(milliseconds(latencyMilliseconds(atPercentile: 50)))"
            + "  p90 \(milliseconds(latencyMilliseconds(atPercentile: 90)))"
            + "  p99 \(milliseconds(latencyMilliseconds(atPercentile: 99)))"
            + "  p99.9 \(milliseconds(latencyMilliseconds(atPercentile: 99.9)))"
            + "  max \(milliseconds(maxLatencyMilliseconds))"
            + (plan.rate != nil ? "  (from intended send times)" : ""))
        lines.append("  errors       " + Self.listing(errors))
        let verdict = unlocks.isExactlyOnce ? "every expected unlock pushed exactly once" : "NOT every expected unlock pushed exactly once"
        lines.append("  unlocks      expected \(unlocks.expected), pushed \(unlocks.pushed), duplicates \(unlocks.duplicates),"
            + " missing \(unlocks.missing), unexpected \(unlocks.unexpected): \(verdict)")
        // A soak device reads pushes only while it waits for an answer, so their arrival says nothing of the server.
        if unlockPushLatency.samples > 0, plan.modeName != "soak" {
            let percentile = { (value: Double) in milliseconds(unlockPushLatency.milliseconds(atPercentile: value) ?? 0) }
            lines.append("  unlock push  p50 \(percentile(50))  p90 \(percentile(90))  p99 \(percentile(99))"
                + "  max \(milliseconds(unlockPushLatency.maxMilliseconds ?? 0)) ms from the LOG to the user's other connections"
                + " (\(unlockPushLatency.samples) pushes)")
        }
        lines.append("  pushes       " + Self.listing(pushes))
        var connections = "\(authenticated) of \(plan.connections) authenticated"
        if !connectionFailures.isEmpty { connections += "; failed: " + Self.listing(connectionFailures) }
        if !byeReasons.isEmpty { connections += "; BYE: " + Self.listing(byeReasons) }
        lines.append("  connections  " + connections)
        if case .soak = plan.pace {
            lines.append("  reconnects   \(reconnects), pushes repeated across one: \(repeatedPushes)")
        }
        if let firstFailure { lines.append("  first failure  " + firstFailure) }
        if let latencyTimeline { lines.append("  latency ms by slice of \(latencyTimeline.sliceMilliseconds) ms, from the start of the measurement") }
        for slice in latencyTimeline?.slices ?? [] {
            let figure = { (value: Double?) in value.map(milliseconds) ?? "-" }
            lines.append("  \(String(format: "%7d", slice.startMilliseconds)) ms  \(slice.logs) logs  p50 \(figure(slice.p50Milliseconds))"
                + "  p99 \(figure(slice.p99Milliseconds))  max \(figure(slice.maxMilliseconds))")
        }
        return lines.joined(separator: "\n")
    }

    private static func milliseconds(_ value: Double?) -> JSONValue {
        value.map { .double(rounded($0)) } ?? .null
    }

    private static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private static func counts(_ counts: [String: Int]) -> JSONValue {
        var object: JSONObject = [:]
        for key in counts.keys.sorted() { object[key] = .int(counts[key]!) }
        return .object(object)
    }

    private static func listing(_ counts: [String: Int]) -> String {
        guard !counts.isEmpty else { return "none" }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }
            .joined(separator: ", ")
    }
}
