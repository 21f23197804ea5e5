import ArgumentParser
import LaurelCore
import Foundation
import LaurelJSON
import Logging

/// `laurel-load`: scripted load clients for a Laurel server. Creates its users through the admin SQL API,
/// opens N connections for M users, logs in a closed or an open loop for a duration or a count, and reports
/// throughput, latency percentiles, errors by code, and whether every expected unlock was pushed exactly once.
@main
struct LaurelLoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "laurel-load",
        abstract: "Drive a Laurel server with scripted clients and report throughput, latency, errors and unlocks.")

    @Option(help: "The server's address.") var host = "127.0.0.1"
    @Option(help: "The server's port; give it again for more instances of the server sharing the database (a user's connections alternate between them).")
    var port: [Int] = []
    @Option(name: .long, help: "PostgreSQL URL or conninfo of the server's database, where the load users are created (env LAUREL_DATABASE_URL, else libpq's PG* variables).")
    var databaseURL: String?
    @Option(help: "Users to create (M).") var users = 100
    @Option(help: "Connections to open (N), spread round-robin over the users.") var connections = 100
    @Option(help: "Run for this long after the warm-up: 500ms, 30s, 2m (default 30s).") var duration: String?
    @Option(help: "Run until this many logs are acknowledged (instead of --duration).") var count: Int?
    @Option(help: "Open loop at this many logs/s in total; without it, closed loop.") var rate: Double?
    @Option(help: "Requests in flight per connection in the closed loop (default 1).") var pipeline: Int?
    @Flag(help: "Send no requests: authenticate the connections, hold them idle for --duration, then close them.")
    var idle = false
    @Flag(help: "Print one JSON object on stdout.") var json = false
    @Option(help: "The activity to log (an id or name of the server's catalog).") var activity = "pushups"
    @Option(help: "Load before the measurement starts, left out of the figures.") var warmup = "0s"
    @Option(help: "An achievement every user that logged must have unlocked and been pushed; empty for none (standfit: first_exercise, mindful: first_step).")
    var expectUnlock = "first_exercise"
    @Option(help: "Also report the latency of each slice this long of the measurement (1s, 100ms), each LOG in the slice it was sent in.")
    var latencyTimeline: String?
    @Option(help: "The users' time zone: an IANA name, or midday for a fixed-offset zone where the run starts between 12:00 and 13:00, so that time-of-day achievements stay out of it whenever it runs.")
    var timeZone = "UTC"
    @Flag(help: "Keep the load users afterwards instead of deleting them.") var keepUsers = false
    @Option(help: "Give each user this many past logs first (stored through SQL, spread over the past year), to measure logging against a long history.")
    var seedLogs = 0
    @Option(help: "Give each user this many past reminders first (stored through SQL, spread over the past year, none answered), to measure logging against many reminders.")
    var seedReminders = 0
    @Flag(help: "Soak: with --rate, devices that stay for the whole run send a mix of requests (of every 20: 14 LOGs, 2 backfilled LOGs, PROFILE, ACHIEVEMENTS, LOGS, CHALLENGES) and reconnect with resume_after every --reconnect-every and whenever the server closes them.")
    var soak = false
    @Option(help: "Soak: how often each device reconnects, give or take a fifth (default 5m).") var reconnectEvery = "5m"
    @Option(help: "Send this request instead of LOGs: a verb and its JSON argument, such as 'LEADERBOARD {\"board\":\"logs\",\"period\":\"week\"}'. Its OK counts as acknowledged; no unlock is expected.")
    var request: String?
    @Option(help: "Connect as existing users, one token per line of this file (the connections spread round-robin over them), instead of creating users.")
    var tokensFile: String?
    @Option(help: "Backfill every LOG: the n-th LOG of a connection is dated n mod N + 1 days before it is sent (1: all yesterday; 25: spread over the 25 days before today).")
    var backfillDays = 0

    func validate() throws {
        guard port.allSatisfy({ (1...65535).contains($0) }) else { throw ValidationError("--port must be between 1 and 65535") }
        guard users >= 1 else { throw ValidationError("--users must be at least 1") }
        guard connections >= 1 else { throw ValidationError("--connections must be at least 1") }
        guard duration == nil || count == nil else { throw ValidationError("give --duration or --count, not both") }
        if let duration {
            guard let parsed = DurationText.parse(duration), parsed > .zero else {
                throw ValidationError("--duration must be a positive duration such as 500ms, 30s or 2m")
            }
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let rate, !(rate > 0 && rate.isFinite) { throw ValidationError("--rate must be a positive number of logs per second") }
        if let pipeline {
            guard pipeline >= 1 else { throw ValidationError("--pipeline must be at least 1") }
            guard rate == nil else { throw ValidationError("--pipeline is for the closed loop; with --rate requests leave on schedule") }
        }
        if idle {
            guard count == nil, rate == nil, pipeline == nil, DurationText.parse(warmup) == .zero else {
                throw ValidationError("--idle holds the connections for --duration; it takes no --count, --rate, --pipeline or --warmup")
            }
        }
        guard DurationText.parse(warmup) != nil else { throw ValidationError("--warmup must be a duration such as 0s, 500ms or 10s") }
        if let latencyTimeline {
            guard let slice = DurationText.parse(latencyTimeline), slice >= .milliseconds(1) else {
                throw ValidationError("--latency-timeline must be a duration of at least 1ms such as 1s or 100ms")
            }
        }
        guard !timeZone.isEmpty else { throw ValidationError("--time-zone must not be empty") }
        guard !activity.isEmpty else { throw ValidationError("--activity must not be empty") }
        if soak {
            guard rate != nil, pipeline == nil, !idle, count == nil, backfillDays == 0 else {
                throw ValidationError("--soak takes --rate and --duration, and no --pipeline, --idle, --count or --backfill-days (it backfills some LOGs itself)")
            }
            guard let every = DurationText.parse(reconnectEvery), every >= .seconds(1) else {
                throw ValidationError("--reconnect-every must be a duration of at least 1s such as 30s or 5m")
            }
        }
        if let request {
            guard let verb = request.split(separator: " ").first, !verb.isEmpty, !soak, backfillDays == 0, seedLogs == 0 else {
                throw ValidationError("--request takes a verb and its argument, and no --soak, --backfill-days or --seed-logs")
            }
        }
        if tokensFile != nil, seedLogs > 0 || seedReminders > 0 {
            throw ValidationError("--tokens-file uses existing users: no --seed-logs or --seed-reminders")
        }
        guard (0...29).contains(backfillDays) else { throw ValidationError("--backfill-days must be between 0 and 29 (the backfill window is 30 days)") }
    }

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "laurel-load")
        logger.logLevel = .warning
        var plan = makePlan()

        if let tokensFile {
            let tokens = try String(contentsOfFile: tokensFile, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
            guard !tokens.isEmpty else { throw LoadError("\(tokensFile) holds no token") }
            plan.users = tokens.count
            let users = tokens.enumerated().map { LoadUser(index: $0, name: "", userID: 0, token: $1) }
            Self.status("connecting \(plan.connections) connections as \(users.count) existing users")
            let report = LoadReport(plan: plan, outcome: await LoadRunner(plan: plan, users: users, status: Self.status).run())
            print(json ? report.json.serialized() : report.text)
            if report.authenticated == 0 { throw ExitCode.failure }
            return
        }
        let connectionString = try LoadDatabase.connectionString(flag: databaseURL)
        let zone = LoadTimeZone.resolve(timeZone)
        let roster = LoadUserRoster(connectionString: connectionString, runID: plan.runID, timeZone: zone, logger: logger)
        Self.status("run \(plan.runID): creating \(plan.users) users in \(zone)")
        let created: [LoadUser]
        do {
            created = try await roster.create(count: plan.users)
            if seedLogs > 0 {
                Self.status("storing \(seedLogs) past logs for each user")
                try await roster.seedHistory(of: created, logs: seedLogs, activity: activity)
            }
            if seedReminders > 0 {
                Self.status("storing \(seedReminders) past reminders for each user")
                try await roster.seedReminders(of: created, count: seedReminders)
            }
        } catch {
            _ = try? await roster.removeAll()
            await roster.close()
            throw LoadError("could not create the load users: \(error)")
        }
        Self.status("connecting \(plan.connections) connections to \(plan.host):\(plan.ports.map(String.init).joined(separator: ","))")
        let outcome = await LoadRunner(plan: plan, users: created, status: Self.status).run()
        let report = LoadReport(plan: plan, outcome: outcome)
        print(json ? report.json.serialized() : report.text)

        if keepUsers {
            Self.status("kept the users load-\(plan.runID)-0 … load-\(plan.runID)-\(plan.users - 1)")
        } else {
            do {
                Self.status("deleting the load users")
                _ = try await roster.removeAll()
            } catch {
                Self.status("could not delete the load users (names load-\(plan.runID)-*): \(error)")
            }
        }
        await roster.close()
        if report.authenticated == 0 {
            Self.status("no connection could authenticate" + (report.firstFailure.map { " (\($0))" } ?? ""))
            throw ExitCode.failure
        }
    }

    private func makePlan() -> LoadPlan {
        var pace: LoadPlan.Pace = idle ? .idle : rate.map { .openLoop(logsPerSecond: $0) } ?? .closedLoop(pipeline: pipeline ?? 1)
        if soak, let rate {
            pace = .soak(requestsPerSecond: rate, reconnectEvery: DurationText.parse(reconnectEvery) ?? .seconds(300))
        }
        let stop: LoadPlan.Stop = count.map { .afterAcknowledged($0) }
            ?? .afterDuration(duration.flatMap(DurationText.parse) ?? .seconds(30))
        var plan = LoadPlan(
            host: host, ports: port.isEmpty ? [7420] : port, users: users, connections: connections,
            pace: pace, stop: stop, warmup: DurationText.parse(warmup) ?? .zero,
            activity: activity, expectedUnlock: expectUnlock.isEmpty ? nil : expectUnlock,
            latencyTimelineSlice: latencyTimeline.flatMap(DurationText.parse), runID: Self.makeRunID())
        plan.backfillDays = backfillDays
        if let request {
            plan.requestLine = request
            plan.expectedUnlock = nil
        }
        return plan
    }

    private static func makeRunID() -> String {
        let value = UInt32.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Progress for the person watching, on stderr so that stdout holds only the report.
    @Sendable static func status(_ message: String) {
        FileHandle.standardError.write(Data("laurel-load: \(message)\n".utf8))
    }
}
