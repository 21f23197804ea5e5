import Foundation
import LaurelClient
import LaurelJSON
import LaurelProtocol
import Synchronization

/// One LOG a device means to store: its client-chosen id and its content, the same on every retry, so that the
/// server knows a retry for the LOG it may already have stored.
struct PlannedLog: Sendable {
    let id: String
    let activity: String
    let amount: Int

    var argument: JSONObject { ["activity": .string(activity), "amount": .int(amount), "id": .string(id)] }
}

/// An UNLOCK push as a device received it.
struct ReceivedUnlock: Hashable, Sendable {
    let seq: Int
    let achievement: String
}

/// The LOGs answered `OK` so far by all devices together: the moment to kill an instance is counted in them.
final class FailoverProgress: Sendable {
    private let acknowledged = Mutex(0)

    var acknowledgedLogs: Int { acknowledged.withLock { $0 } }

    func acknowledge() { acknowledged.withLock { $0 += 1 } }
}

/// One app install of a user, talking to Laurel through the balancer as a phone would: it logs with ids of its
/// own, keeps the highest push `seq` it saw, and when its connection drops it connects again, authenticates with
/// `resume_after` that seq, and sends every LOG it has no `OK` for again, with the same id. Everything it sent
/// and received is kept for the test to hold against the database. One task drives it at a time.
struct FailoverDevice: Sendable {
    /// LOGs sent before waiting for their answers: a few in flight when the connection breaks.
    static let pipelined = 4

    let user: TestUser
    let name: String
    let balancerPort: Int
    let plan: [PlannedLog]
    /// When the device gives up instead of hanging the test: what it has not done by then fails it.
    let deadline: ContinuousClock.Instant

    private var session: LineClient?
    private var sentOnce: Set<String> = []

    /// Ids answered `OK`, a retry's `OK` included.
    private(set) var acknowledged: Set<String> = []
    /// LOG lines written, retries included.
    private(set) var logLinesSent = 0
    /// Ids sent more than once: they had no answer when a connection broke (or were refused as `unavailable`).
    private(set) var resent: Set<String> = []
    /// Resent ids answered `"duplicate": true`: stored before the connection broke, their first `OK` lost with it.
    private(set) var resentAndFoundStored: Set<String> = []
    /// LOG, AUTH or other answers that were neither `OK` nor a refusal worth a retry.
    private(set) var refusals: [String] = []
    /// Every stored push's seq, in the order received.
    private(set) var seqs: [Int] = []
    private(set) var unlocks: [ReceivedUnlock] = []
    /// UNLOCK pushes received on a session after the first, live or replayed after `resume_after`.
    private(set) var unlocksAfterReconnecting = 0
    /// Sessions authenticated: the first, and one per reconnection.
    private(set) var sessions = 0
    /// Connections through the balancer that ended before AUTH's `OK` (one sent to the killed instance, say).
    private(set) var failedAttempts = 0

    init(user: TestUser, name: String, balancerPort: Int, plan: [PlannedLog], deadline: ContinuousClock.Instant) {
        self.user = user
        self.name = name
        self.balancerPort = balancerPort
        self.plan = plan
        self.deadline = deadline
    }

    var lastSeq: Int { seqs.max() ?? 0 }
    var reconnections: Int { max(sessions - 1, 0) }
    var unacknowledged: [String] { plan.map(\.id).filter { !acknowledged.contains($0) } }

    /// Sends every planned LOG until each is answered `OK` (or refused for good), reconnecting as often as needed.
    mutating func logEverything(progress: FailoverProgress) async {
        var pending = plan
        while !pending.isEmpty, let client = await currentSession() {
            var waiting: [Int: PlannedLog] = [:]
            for log in pending.prefix(Self.pipelined) {
                waiting[client.sendRequest("LOG", log.argument, flush: false)] = log
                logLinesSent += 1
                if !sentOnce.insert(log.id).inserted { resent.insert(log.id) }
            }
            client.connection.flush()
            var retryAfter: Duration?
            while !waiting.isEmpty, let arrival = await read(client) {
                guard case .answer(let tag, let line) = arrival, let log = waiting.removeValue(forKey: tag) else { continue }
                if line.isOK {
                    acknowledged.insert(log.id)
                    progress.acknowledge()
                    if line.object["duplicate"]?.boolValue == true { resentAndFoundStored.insert(log.id) }
                    pending.removeAll { $0.id == log.id }
                } else if line.errorCode == "unavailable" || line.errorCode == "rate_limited" {
                    // Nothing stored for sure: the LOG stays pending and goes again with its id.
                    retryAfter = .milliseconds(line.object["retry_after_ms"]?.intValue ?? 50)
                } else {
                    refusals.append("\(log.id): \(line.raw)")
                    pending.removeAll { $0.id == log.id }
                }
            }
            if !waiting.isEmpty { await dropSession() }
            if let retryAfter { try? await Task.sleep(for: retryAfter) }
        }
    }

    /// Sends `verb` and returns its answer, reconnecting until one comes; nil only past the deadline.
    mutating func ask(_ verb: String) async -> ServerLine? {
        while let client = await currentSession() {
            let sent = client.sendRequest(verb)
            while let arrival = await read(client) {
                if case .answer(sent, let line) = arrival { return line }
            }
            await dropSession()
        }
        return nil
    }

    /// Pings until the device has received the push numbered `seq` (pushes of the other device's LOGs come
    /// through PostgreSQL's NOTIFY, a moment after that LOG's `OK`); false if it has not by the deadline.
    mutating func catchUp(to seq: Int) async -> Bool {
        while lastSeq < seq, ContinuousClock.now < deadline {
            guard await ask("PING") != nil else { return false }
            if lastSeq < seq { try? await Task.sleep(for: .milliseconds(20)) }
        }
        return lastSeq >= seq
    }

    mutating func close() async {
        await session?.close()
        session = nil
    }

    /// The open session, or a new one through the balancer: HELLO, then AUTH with `resume_after` the highest seq
    /// received (0 the first time, so that nothing stored before the first AUTH could be missed either).
    private mutating func currentSession() async -> LineClient? {
        if let session { return session }
        while ContinuousClock.now < deadline {
            if let client = await authenticatedConnection() {
                sessions += 1
                session = client
                return client
            }
            failedAttempts += 1
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    private mutating func authenticatedConnection() async -> LineClient? {
        guard let (client, answer) = try? await LineClient.authenticating(port: balancerPort, token: user.token, resumeAfter: lastSeq) else {
            return nil
        }
        if answer.isOK { return client }
        refusals.append("AUTH: \(answer.raw)")
        await client.close()
        return nil
    }

    private mutating func dropSession() async {
        await session?.close()
        session = nil
    }

    /// The next line, with what it says about stored pushes taken in; nil once the connection is gone. A connection
    /// silent for 15 s counts as gone too (a line stream that timed out cannot be read again).
    private mutating func read(_ client: LineClient) async -> LaurelConnection.Arrival? {
        guard let arrival = try? await client.nextArrival(timeout: .seconds(15)) else { return nil }
        if case .line(let line) = arrival, line.isPush, let seq = line.object["seq"]?.intValue {
            seqs.append(seq)
            if line.kind == "UNLOCK", let achievement = line.object["id"]?.stringValue {
                unlocks.append(ReceivedUnlock(seq: seq, achievement: achievement))
                if sessions > 1 { unlocksAfterReconnecting += 1 }
            }
        }
        return arrival
    }
}
