import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelServer
import Synchronization
import Testing

/// Seeded protocol fuzzing over real sockets against a real server and database: every line gets exactly one
/// answer, in order, none of them `internal`, and every connection still answers afterwards. The default is
/// 100,000 lines over 4 connections; `scripts/fuzz --lines N --seed S` runs longer ones
/// (LAUREL_FUZZ_LINES, LAUREL_FUZZ_SEED, LAUREL_FUZZ_CONNECTIONS).
@Suite struct ProtocolFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let lines = environment["LAUREL_FUZZ_LINES"].flatMap(Int.init) ?? 100_000
    static let seed = environment["LAUREL_FUZZ_SEED"].flatMap(UInt64.init) ?? 20_261_124
    static let connections = max(1, environment["LAUREL_FUZZ_CONNECTIONS"].flatMap(Int.init) ?? 4)

    @Test func everyFuzzedLineGetsOneAnswerAndTheServerKeepsServing() async throws {
        let user = try await LaurelTestDatabase.createUser("fuzz")
        var configuration = ServerConfiguration(port: 0)
        configuration.maxLineBytes = 4096
        // The fuzzer sends as fast as the server answers; the limits would answer most lines instead of the parser
        // and the handlers.
        configuration.connectionRequestsPerSecond = 1e9
        configuration.connectionRequestBurst = 1 << 30
        configuration.limits.logsPerSecond = 1e9
        configuration.limits.logBurst = 1 << 30
        try await TestServer.withServer(configuration: configuration, challenges: true) { server in
            let port = server.port
            let results = try await withThrowingTaskGroup(of: FuzzResult.self) { group in
                for index in 0..<Self.connections {
                    let share = Self.share(of: index)
                    let seed = Self.seed &+ UInt64(index)
                    group.addTask { try await Self.fuzz(port: port, token: user.token, lines: share, seed: seed) }
                }
                var results: [FuzzResult] = []
                for try await result in group { results.append(result) }
                return results
            }
            // A connection that stopped answering: is the server still there for others, and for the same user?
            for stuck in results.compactMap(\.stuck) {
                let sameUser = try? await LineClient.authenticated(port: port, token: user.token)
                let pingsSameUser = (try? await sameUser?.request("PING").kind == "OK") ?? false
                let profileSameUser = (try? await sameUser?.request("PROFILE").kind) ?? nil
                let counters = ["laurel_slow_consumer_disconnects_total", "laurel_requests_dropped_total", "laurel_connections_open",
                                "laurel_db_pool_queue_depth"]
                    .map { "\($0) \(server.counter($0))" }.joined(separator: ", ")
                    + ", requests answered by verb (all connections) \(server.requestsAnswered)"
                let backends = (try? await LaurelTestDatabase.scalar("""
                    SELECT string_agg(state || ' ' || coalesce(wait_event_type || ':' || wait_event, '-') || ' ' || left(query, 100), ' | ')
                      FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'
                    """)) ?? nil
                Issue.record("""
                    a connection got no answer for 30 s after \(stuck); a new connection of the user: PING \(pingsSameUser), \
                    PROFILE \(profileSameUser ?? "none"); \(counters); busy database sessions: \(backends ?? "none")
                    """)
            }
            for socketQueues in results.compactMap(\.socketQueues) {
                Issue.record("socket queues when it stopped (ss): \(socketQueues)")
            }
            let sent = results.reduce(0) { $0 + $1.sent }
            let answered = results.reduce(0) { $0 + $1.answered }
            let internalErrors = results.flatMap(\.internalErrors)
            #expect(sent == Self.lines)
            #expect(answered == sent, "every line is answered once")
            let unexpected = Set(internalErrors)
            #expect(unexpected.isEmpty, "internal errors for \(unexpected)")
            #expect(results.filter { !$0.stillAnswers }.isEmpty, "every connection still answers PING")
            let fresh = try await LineClient.authenticated(port: port, token: user.token)
            #expect(try await fresh.request("PING").kind == "OK")
        }
    }

    /// LAUREL_FUZZ_FIRST_SHARE (a per cent) gives the first connection that share of the lines, so that it finishes
    /// and closes while the others go on; otherwise the lines are split evenly.
    static let firstShare = environment["LAUREL_FUZZ_FIRST_SHARE"].flatMap(Int.init)

    static func share(of index: Int) -> Int {
        guard let percent = firstShare, connections > 1 else {
            return lines / connections + (index < lines % connections ? 1 : 0)
        }
        let first = lines * min(100, max(0, percent)) / 100
        if index == 0 { return first }
        let rest = lines - first, others = connections - 1
        return rest / others + (index - 1 < rest % others ? 1 : 0)
    }

    /// How many lines a connection's sender may be ahead of their answers.
    static let window = 4096

    /// The answers a connection's reader has counted, for its sender's window.
    final class AnsweredLines: Sendable {
        private let count = Atomic<Int>(0)
        private let stopped = Atomic<Bool>(false)
        var value: Int { count.load(ordering: .relaxed) }
        func set(_ value: Int) { count.store(value, ordering: .relaxed) }
        /// Set when the reader gave up on the connection: the sender must not wait for answers any more.
        var readerStopped: Bool { stopped.load(ordering: .relaxed) }
        func stopReader() { stopped.store(true, ordering: .relaxed) }
    }

    struct FuzzResult: Sendable {
        var sent = 0
        var answered = 0
        var internalErrors: [String] = []
        var stillAnswers = false
        /// Where a connection stopped being answered: how many answers it had, the last one, and the lines after it.
        var stuck: String?
        /// The kernel's send and receive queues of the server's sockets when the connection stopped being answered:
        /// bytes waiting in the server's receive queue mean the server stopped reading, in the client's that the
        /// client did.
        var socketQueues: String?
    }

    static func socketQueues(port: Int) -> String? {
        let ss = Process()
        ss.executableURL = URL(fileURLWithPath: "/usr/bin/ss")
        ss.arguments = ["-tnoi", "state", "established", "( sport = :\(port) or dport = :\(port) )"]
        let output = Pipe()
        ss.standardOutput = output
        guard (try? ss.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        ss.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    private static func fuzz(port: Int, token: String, lines: Int, seed: UInt64) async throws -> FuzzResult {
        let client = try await LineClient.authenticated(port: port, token: token)
        let answered = AnsweredLines()
        var outcome = try await withThrowingTaskGroup(of: FuzzResult?.self) { group in
            // Lines are made as they are sent: a long run does not fit in memory at once.
            group.addTask {
                var fuzzer = ProtocolFuzzer(seed: seed)
                var chunk: [UInt8] = []
                for index in 0..<lines {
                    chunk += fuzzer.next().bytes
                    chunk.append(UInt8(ascii: "\n"))
                    if chunk.count > 32 * 1024 {
                        // A failed send means the connection is gone; the reader reports what it saw.
                        guard (try? await client.sendBytes(chunk)) != nil else { return nil }
                        chunk.removeAll(keepingCapacity: true)
                        // Making lines is work on the same threads the in-process server runs on: a sender that
                        // ran far ahead of the answers would keep them busy while the server waits for a turn
                        // (with two senders on a 2-core machine, for minutes). A pipelining client keeps a window.
                        while index + 1 - answered.value > Self.window, !answered.readerStopped, !Task.isCancelled {
                            try? await Task.sleep(for: .milliseconds(2))
                        }
                    }
                }
                if !chunk.isEmpty { _ = try? await client.sendBytes(chunk) }
                return nil
            }
            group.addTask {
                var result = FuzzResult(sent: lines)
                var last = ""
                while result.answered < lines {
                    let line: LineClient.Line
                    do {
                        line = try await client.nextLine(timeout: .seconds(30))
                    } catch LineClientError.timedOut {
                        answered.stopReader()
                        // The lines are the same for the same seed: show the one that got no answer, and the next.
                        var again = ProtocolFuzzer(seed: seed)
                        for index in 0..<result.answered {
                            _ = again.next()
                            // Making lines is work on the threads the in-process server and the other connections
                            // run on: give them a turn now and then.
                            if index % 1000 == 0 { await Task.yield() }
                        }
                        let unanswered = (0..<2).map { _ in String(decoding: again.next().bytes.prefix(300), as: UTF8.self).debugDescription }
                        result.stuck = "\(result.answered) answers, the last \(last.prefix(300)); next lines \(unanswered)"
                        result.socketQueues = Self.socketQueues(port: port)
                        return result
                    }
                    last = line.raw
                    guard line.kind == "OK" || line.kind == "ERR" else { continue }
                    result.answered += 1
                    answered.set(result.answered)
                    if line.kind == "ERR", line.object["code"]?.stringValue == "internal" {
                        result.internalErrors.append(line.tag)
                    }
                }
                result.stillAnswers = try await client.request("PING").kind == "OK"
                return result
            }
            var outcome = FuzzResult()
            for try await result in group {
                guard let result else { continue }
                outcome = result
                // The sender may wait for a server that reads no more: end the connection under it.
                if result.stuck != nil { await client.close() }
            }
            return outcome
        }
        await client.close()
        // The lines that got `internal`, by verb: the same seed makes the same lines again.
        if !outcome.internalErrors.isEmpty {
            let tags = Set(outcome.internalErrors)
            var fuzzer = ProtocolFuzzer(seed: seed)
            var verbs: [String: String] = [:]
            for index in 0..<lines {
                if index % 1000 == 0 { await Task.yield() }
                let (bytes, verb) = fuzzer.next()
                guard let space = bytes.firstIndex(of: UInt8(ascii: " ")) else { continue }
                let tag = String(decoding: bytes[..<space], as: UTF8.self)
                if tags.contains(tag) { verbs[tag] = verb ?? "no verb" }
            }
            outcome.internalErrors = outcome.internalErrors.map { verbs[$0] ?? "line tagged \($0)" }
        }
        return outcome
    }
}
