import Foundation
import LaurelClient
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelServer
import Synchronization
import Testing

/// A connection whose pushes are all kept, in the order they arrived, so tests can count them. Pushes are
/// gathered at barriers: a `PING` is answered after every line the server wrote before it, so after `sync()` the
/// recorder holds every push the server had sent to this connection by then.
final class PushRecorder: Sendable {
    let client: LineClient
    private let seen = Mutex<[LineClient.Line]>([])

    init(_ client: LineClient) {
        self.client = client
    }

    static func authenticated(port: Int, token: String) async throws -> PushRecorder {
        PushRecorder(try await LineClient.authenticated(port: port, token: token))
    }

    /// Every push gathered so far.
    var pushes: [LineClient.Line] { seen.withLock { $0 } }

    /// Takes the pushes the client kept while waiting for responses into the record.
    private func gather() {
        let new = client.pushes.withLock { kept in
            defer { kept.removeAll() }
            return kept
        }
        seen.withLock { $0.append(contentsOf: new) }
    }

    /// A barrier: every push sent before the answer to a `PING` is recorded.
    @discardableResult
    func sync() async throws -> [LineClient.Line] {
        let pong = try await client.request("PING")
        #expect(pong.kind == "OK")
        gather()
        return pushes
    }

    /// Waits `grace` for late pushes (from other instances, say), then takes a barrier.
    @discardableResult
    func settle(_ grace: Duration = .milliseconds(700)) async throws -> [LineClient.Line] {
        try await Task.sleep(for: grace)
        return try await sync()
    }

    /// Takes barriers until `condition` holds for the recorded pushes; gives up (recording an issue) after `timeout`.
    @discardableResult
    func wait(
        timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
        until condition: ([LineClient.Line]) -> Bool
    ) async throws -> [LineClient.Line] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let pushes = try await sync()
            if condition(pushes) { return pushes }
            if ContinuousClock.now >= deadline {
                Issue.record("pushes did not arrive in time; seen: \(pushes.map(\.raw))", sourceLocation: sourceLocation)
                return pushes
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Sends a request through the client; the pushes that came before its answer are recorded.
    @discardableResult
    func request(_ verb: String, _ argument: JSONObject? = nil) async throws -> LineClient.Line {
        let answer = try await client.request(verb, argument)
        gather()
        return answer
    }

    /// The recorded pushes of one kind.
    func pushes(_ kind: String) -> [LineClient.Line] {
        pushes.filter { $0.kind == kind }
    }

    /// The achievement ids of the recorded `UNLOCK` pushes, in arrival order.
    var unlockedIDs: [String] {
        pushes("UNLOCK").compactMap { $0.object["id"]?.stringValue }
    }

    /// The `seq` of every recorded stored push, in arrival order.
    var seqs: [Int] {
        pushes.compactMap { $0.object["seq"]?.intValue }
    }
}

extension LineClient {
    /// Sends all `requests` in one write, without waiting in between, and returns their responses in request
    /// order; pushes that arrive meanwhile are kept in `pushes`.
    func pipeline(_ requests: [(verb: String, argument: JSONObject?)], timeout: Duration = .seconds(30)) async throws -> [Line] {
        let tags = requests.map { sendRequest($0.verb, $0.argument, flush: false) }
        connection.flush()
        var responses: [Int: Line] = [:]
        while responses.count < requests.count {
            switch try await nextArrival(timeout: timeout) {
            case .answer(let tag, let line): responses[tag] = line
            case .line(let line) where line.isPush: pushes.withLock { $0.append(line) }
            case .line, .lineTooLong: continue
            }
        }
        return tags.map { responses[$0]! }
    }
}

/// Days and instants as the server sees them for a user, so that tests can place logs on chosen local days.
enum TestClock {
    static let utc = TimeZone(identifier: "UTC")!

    /// The user's local date now.
    static func today(in zone: TimeZone = utc) -> LocalDay {
        LocalDay(of: Date(), in: zone)
    }

    /// A server clock that reads noon UTC of today now and runs on from there. A test that gives it to its server and
    /// takes its days from it (`day(of:)`) keeps one "today" whatever the hour it runs at: a run across midnight UTC
    /// (or from a Sunday into a Monday) would otherwise take "today" on one day and let the server decide on the next.
    static func middayClock() -> ServerClock {
        .starting(at: utc(today()))
    }

    /// The UTC date a server clock reads now.
    static func day(of clock: ServerClock) -> LocalDay {
        LocalDay(of: clock.now, in: utc)
    }

    /// The instant of a UTC wall-clock reading on `day`.
    static func utc(_ day: LocalDay, hour: Int = 12, minute: Int = 0, second: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(day.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// Noon UTC `days` days before today (UTC): a fixed local hour, so time-of-day achievements stay out of the way.
    static func noon(daysAgo days: Int, minute: Int = 0, second: Int = 0) -> Date {
        utc(today().adding(days: -days), hour: 12, minute: minute, second: second)
    }

    /// A fixed-offset zone in which it is between 12:00 and 13:00 now: a user there who logs now logs at midday,
    /// so the time-of-day achievements (`early_bird`, `night_owl`) stay out of a test whenever it runs.
    static func zoneWhereItIsMidday(_ now: Date = Date()) -> String {
        let utcHour = Int(now.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) / 3600)
        let east = (12 - utcHour + 24) % 24
        // Etc/GMT-N is N hours east of UTC (the sign is POSIX's); the offsets run from -12 to +14.
        return east <= 14 ? (east == 0 ? "Etc/UTC" : "Etc/GMT-\(east)") : "Etc/GMT+\(24 - east)"
    }

    static func text(_ date: Date) -> JSONValue {
        .string(Timestamp.format(date))
    }
}

/// Builders of request arguments and readers of answers shared by the engine tests.
enum Engine {
    static func log(_ activity: String, amount: Int = 1, at: Date? = nil, id: String? = nil) -> JSONObject {
        var argument: JSONObject = ["activity": .string(activity), "amount": .int(amount)]
        if let at { argument["at"] = TestClock.text(at) }
        if let id { argument["id"] = .string(id) }
        return argument
    }

    /// The `OK` value of an answer as an object; records an issue when the answer is not `OK`.
    @discardableResult
    static func ok(_ line: LineClient.Line, sourceLocation: SourceLocation = #_sourceLocation) -> JSONObject {
        #expect(line.kind == "OK", "expected OK, got \(line.raw)", sourceLocation: sourceLocation)
        return line.object
    }

    /// The ids of the achievements in an `unlocked` or `achievements` list.
    static func ids(_ value: JSONValue?) -> [String] {
        (value?.arrayValue ?? []).compactMap { $0.objectValue?["id"]?.stringValue }
    }

    /// The achievements of an ACHIEVEMENTS answer, by id.
    static func byID(_ answer: JSONObject) -> [String: JSONObject] {
        var result: [String: JSONObject] = [:]
        for value in answer["achievements"]?.arrayValue ?? [] {
            if let object = value.objectValue, let id = object["id"]?.stringValue { result[id] = object }
        }
        return result
    }

    /// A push's object without its `seq`: what NOTIFICATIONS keeps as `data`.
    static func withoutSeq(_ object: JSONObject) -> JSONObject {
        var copy = object
        copy["seq"] = nil
        return copy
    }
}
