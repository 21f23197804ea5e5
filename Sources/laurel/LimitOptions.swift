import ArgumentParser
import LaurelCore
import LaurelServer

/// The limits of rules.md ("Limits and validation") that an operator sets, each a flag and an environment
/// variable. Instances sharing a database are meant to run with the same ones: the log rate is spent from an
/// allowance stored with each user, at the rate of the instance that stores the log.
struct LimitOptions: ParsableArguments {
    @Option(help: "New logs, lesson completions and events a user may store a second, sustained, across all instances (env LAUREL_LOG_RATE; default 50).")
    var logRate: Double?
    @Option(help: "New facts a user may store at once, e.g. a device syncing its backlog (env LAUREL_LOG_BURST; default 1000).")
    var logBurst: Int?
    @Option(help: "Requests of any verb a connection may send a second, sustained (env LAUREL_CONNECTION_REQUEST_RATE; default 200).")
    var connectionRequestRate: Double?
    @Option(help: "Requests of any verb a connection may send at once (env LAUREL_CONNECTION_REQUEST_BURST; default 2000).")
    var connectionRequestBurst: Int?
    @Option(help: "Requests a connection may have unanswered before the server stops reading it (env LAUREL_MAX_IN_FLIGHT; default 64).")
    var maxInFlight: Int?
    @Option(help: "Custom activities per user (env LAUREL_MAX_CUSTOM_ACTIVITIES; default 200).")
    var maxCustomActivities: Int?
    @Option(help: "Achievement templates per premium user, also SUBSCRIPTION's template_limit (env LAUREL_MAX_TEMPLATES; default 100).")
    var maxTemplates: Int?
    @Option(help: "Friends per user (env LAUREL_MAX_FRIENDS; default 500).")
    var maxFriends: Int?
    @Option(help: "How far back a log's `at` may lie (env LAUREL_BACKFILL_WINDOW; default 30d).")
    var backfillWindow: String?
    @Option(help: "Failed AUTHs one client address (an IPv6 /64) may make a second, sustained, across all instances; beyond them its AUTHs are refused unchecked (env LAUREL_AUTH_FAILURES_PER_SECOND; default 1).")
    var authFailuresPerSecond: Double?
    @Option(help: "Failed AUTHs one client address may make at once, 0 to turn the limit off (env LAUREL_AUTH_FAILURE_BURST; default 20).")
    var authFailureBurst: Int?

    func apply(to configuration: inout ServerConfiguration) throws {
        var limits = configuration.limits
        limits.logsPerSecond = try positive(Setting.number(logRate, env: "LAUREL_LOG_RATE", default: limits.logsPerSecond), "LAUREL_LOG_RATE")
        limits.logBurst = try atLeastOne(Setting.integer(logBurst, env: "LAUREL_LOG_BURST", default: limits.logBurst), "LAUREL_LOG_BURST")
        limits.customActivities = try notNegative(
            Setting.integer(maxCustomActivities, env: "LAUREL_MAX_CUSTOM_ACTIVITIES", default: limits.customActivities),
            "LAUREL_MAX_CUSTOM_ACTIVITIES")
        limits.templates = try notNegative(
            Setting.integer(maxTemplates, env: "LAUREL_MAX_TEMPLATES", default: limits.templates), "LAUREL_MAX_TEMPLATES")
        limits.friends = try notNegative(Setting.integer(maxFriends, env: "LAUREL_MAX_FRIENDS", default: limits.friends), "LAUREL_MAX_FRIENDS")
        configuration.limits = limits
        configuration.connectionRequestsPerSecond = try positive(
            Setting.number(connectionRequestRate, env: "LAUREL_CONNECTION_REQUEST_RATE", default: configuration.connectionRequestsPerSecond),
            "LAUREL_CONNECTION_REQUEST_RATE")
        configuration.connectionRequestBurst = try atLeastOne(
            Setting.integer(connectionRequestBurst, env: "LAUREL_CONNECTION_REQUEST_BURST", default: configuration.connectionRequestBurst),
            "LAUREL_CONNECTION_REQUEST_BURST")
        configuration.maxRequestsInFlight = try atLeastOne(
            Setting.integer(maxInFlight, env: "LAUREL_MAX_IN_FLIGHT", default: configuration.maxRequestsInFlight), "LAUREL_MAX_IN_FLIGHT")
        let window = try Setting.duration(
            backfillWindow, env: "LAUREL_BACKFILL_WINDOW", default: .seconds(configuration.logTimePolicy.backfillWindow))
        configuration.logTimePolicy.backfillWindow = window.inSeconds
        let standard = FailedAuthLimit()
        let burst = try notNegative(
            Setting.integer(authFailureBurst, env: "LAUREL_AUTH_FAILURE_BURST", default: standard.burst), "LAUREL_AUTH_FAILURE_BURST")
        let rate = try positive(
            Setting.number(authFailuresPerSecond, env: "LAUREL_AUTH_FAILURES_PER_SECOND", default: standard.perSecond),
            "LAUREL_AUTH_FAILURES_PER_SECOND")
        configuration.failedAuthLimit = burst == 0 ? nil : FailedAuthLimit(perSecond: rate, burst: burst)
    }

    private func positive(_ value: Double, _ name: String) throws -> Double {
        guard value > 0, value.isFinite else { throw SettingError("\(name) must be a number above 0, not \(value)") }
        return value
    }

    private func atLeastOne(_ value: Int, _ name: String) throws -> Int {
        guard value >= 1 else { throw SettingError("\(name) must be at least 1, not \(value)") }
        return value
    }

    private func notNegative(_ value: Int, _ name: String) throws -> Int {
        guard value >= 0 else { throw SettingError("\(name) must not be negative, not \(value)") }
        return value
    }
}
