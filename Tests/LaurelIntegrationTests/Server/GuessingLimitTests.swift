import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Synchronization
import Testing

/// Token guessing behind a balancer that speaks the PROXY protocol, over real sockets, two instances and one
/// PostgreSQL: failed AUTHs from one client address are held to its allowance whichever instance and connection
/// they come on, while another address authenticates as usual; a connection without a valid header is closed.
@Suite struct GuessingLimitTests {
    /// One failure every 5 s after a burst of 5: a guessing run of a few seconds gets the burst and one or two more.
    static let limit = FailedAuthLimit(perSecond: 0.2, burst: 5)
    static let guesser = "198.18.0.1"
    static let bystander = "198.18.0.2"

    static var configuration: ServerConfiguration {
        var configuration = ServerConfiguration(port: 0)
        configuration.proxyProtocol = true
        configuration.failedAuthLimit = limit
        return configuration
    }

    /// A PROXY header for a client at `address`: version 2 (binary) or 1 (text).
    static func header(from address: String, binary: Bool) -> [UInt8] {
        let octets = address.split(separator: ".").compactMap { UInt8($0) }
        guard binary else { return Array("PROXY TCP4 \(address) 127.0.0.1 40000 7420\r\n".utf8) }
        let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]
        return signature + [0x21, 0x11, 0x00, 12] + octets + [127, 0, 0, 1, 0x9C, 0x40, 0x1C, 0xFC]
    }

    /// A client at `address` as the balancer would pass it on: the header first, then the greeting.
    static func connect(port: Int, from address: String, binary: Bool = true) async throws -> LineClient {
        let client = try await LineClient.connect(port: port)
        try await client.sendBytes(header(from: address, binary: binary))
        #expect(try await client.nextLine().kind == "HELLO")
        return client
    }

    @Test func guessesFromOneAddressAreHeldToItsAllowanceAcrossInstances() async throws {
        let user = try await LaurelTestDatabase.createUser("guessed")
        try await TestServer.run(configuration: Self.configuration) { firstPort in
            try await TestServer.run(configuration: Self.configuration) { secondPort in
                let started = ContinuousClock.now
                // 30 connections at once, half on each instance, half with each header version, 3 guesses each.
                let answers = try await withThrowingTaskGroup(of: [String].self) { group in
                    for index in 0..<30 {
                        group.addTask {
                            let client = try await Self.connect(
                                port: index % 2 == 0 ? firstPort : secondPort, from: Self.guesser, binary: index % 4 < 2)
                            defer { Task { await client.close() } }
                            var codes: [String] = []
                            for guess in 0..<3 {
                                let answer = try await client.request("AUTH", ["token": .string("lt_guess_\(index)_\(guess)")])
                                codes.append(answer.errorCode ?? answer.kind)
                                if answer.errorCode == "rate_limited" {
                                    #expect((answer.object["retry_after_ms"]?.intValue ?? 0) > 0)
                                }
                            }
                            return codes
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                let elapsed = started.duration(to: .now)
                let failed = answers.filter { $0 == "auth_failed" }.count
                let refused = answers.filter { $0 == "rate_limited" }.count
                let allowed = Self.limit.burst + Int((Double(elapsed.components.seconds + 1) * Self.limit.perSecond).rounded(.up))
                print("guessing: \(answers.count) AUTHs from one address over two instances in \(elapsed): \(failed) checked and failed (allowance \(allowed)), \(refused) refused unchecked")
                #expect(failed >= Self.limit.burst, "the burst is usable")
                #expect(failed <= allowed, "more guesses checked than the address's allowance")
                #expect(failed + refused == answers.count)

                // Another address authenticates on both instances as usual.
                for port in [firstPort, secondPort] {
                    let client = try await Self.connect(port: port, from: Self.bystander)
                    #expect(try await client.request("AUTH", ["token": .string(user.token)]).kind == "OK")
                    await client.close()
                }
            }
        }
        let pool = try await LaurelTestDatabase.admin()
        let stored = try await pool.withConnection { connection in
            try connection.query("SELECT available FROM laurel.auth_failures WHERE source = $1::inet", [.text(Self.guesser)])
                .first?.optionalDouble("available")
        }
        #expect(stored != nil, "the guesser's allowance is stored where every instance sees it")
    }

    /// While an address's allowance is spent its AUTHs are not looked at, so a valid token is refused too: the
    /// answer must not tell a guesser that it guessed right.
    @Test func aSpentAddressIsRefusedEvenWithAValidToken() async throws {
        let user = try await LaurelTestDatabase.createUser("guessed-valid")
        let address = "198.18.0.3"
        try await TestServer.run(configuration: Self.configuration) { port in
            // Spent, and dated an hour ahead: however slow the machine, nothing refills before the AUTHs below.
            let pool = try await LaurelTestDatabase.admin()
            try await pool.withConnection { connection in
                try connection.execute(
                    "INSERT INTO laurel.auth_failures (source, available, spent_at) VALUES ($1::inet, 0, now() + interval '1 hour')",
                    [.text(address)])
            }
            let client = try await Self.connect(port: port, from: address, binary: false)
            let refused = try await client.request("AUTH", ["token": .string(user.token)])
            #expect(refused.errorCode == "rate_limited")
            #expect((refused.object["retry_after_ms"]?.intValue ?? 0) > 0)
            // A refusal is not a failure: the connection stays open and usable.
            #expect(try await client.pingSucceeds())
            #expect(try await client.request("AUTH", ["token": .string(user.token)]).errorCode == "rate_limited")
            #expect(try await client.pingSucceeds())
        }
    }

    /// AUTHs from one address wait for each other's decisions (the address's allowance row is locked until a
    /// decision commits), so when many clients of one address connect at once, the last ones' answers can come after
    /// the auth timeout. They sent AUTH in time (protocol.md): they are answered, and stay.
    @Test func anAuthSentInTimeButAnsweredAfterTheAuthTimeoutKeepsItsConnection() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-late")
        let address = "198.18.0.4"
        var configuration = Self.configuration
        configuration.authTimeout = .seconds(1)
        try await TestServer.run(configuration: configuration) { port in
            let pool = try await LaurelTestDatabase.admin()
            try await pool.withConnection { connection in
                try connection.execute("INSERT INTO laurel.auth_failures (source) VALUES ($1::inet)", [.text(address)])
            }
            // Another decision on the address's row, which takes 2.5 s.
            let locker = Task {
                try await pool.withConnection { connection in
                    try connection.transaction { connection in
                        try connection.execute("SELECT 1 FROM laurel.auth_failures WHERE source = $1::inet FOR UPDATE", [.text(address)])
                        try connection.execute("SELECT pg_sleep(2.5)")
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            let client = try await Self.connect(port: port, from: address)
            let answer = try await client.request("AUTH", ["token": .string(user.token)])
            #expect(answer.kind == "OK", "\(answer.raw)")
            try await locker.value
            #expect(try await client.pingSucceeds(), "closed after the AUTH's answer")
        }
    }

    /// AUTHs with valid tokens from one address share its allowance's row: one is answered while another is being
    /// decided (a crowd of devices behind one carrier's address reconnecting at once is not answered one by one),
    /// while an AUTH that may spend a failure waits until no decision on the address is in progress.
    @Test func validTokensFromOneAddressDoNotWaitForEachOther() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-shared")
        let address = "198.18.0.5"
        try await TestServer.run(configuration: Self.configuration) { port in
            let pool = try await LaurelTestDatabase.admin()
            try await pool.withConnection { connection in
                try connection.execute("INSERT INTO laurel.auth_failures (source) VALUES ($1::inet)", [.text(address)])
            }
            // A valid AUTH being decided elsewhere: the row held as such an AUTH holds it, until told to let go
            // (or 30 s, so that a server that waits for it fails the test instead of hanging it).
            let flags = HoldFlags()
            let holder = Task {
                try await pool.withConnection { connection in
                    try connection.transaction { connection in
                        try connection.execute("SELECT 1 FROM laurel.auth_failures WHERE source = $1::inet FOR SHARE", [.text(address)])
                        let started = ContinuousClock.now
                        while !flags.release.load(ordering: .acquiring), started.duration(to: .now) < .seconds(30) {
                            try connection.execute("SELECT pg_sleep(0.02)")
                        }
                        flags.letGo.store(true, ordering: .releasing)
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            let valid = try await Self.connect(port: port, from: address)
            #expect(try await valid.request("AUTH", ["token": .string(user.token)]).kind == "OK")
            #expect(!flags.hasLetGo, "answered only once the row was let go")

            // A wrong token may spend a failure: it waits for the decision in progress.
            let guesser = try await Self.connect(port: port, from: address)
            let guess = Task {
                let answer = try await guesser.request("AUTH", ["token": .string("lt_wrong_guess")])
                flags.answered.store(true, ordering: .releasing)
                return answer
            }
            try await Task.sleep(for: .milliseconds(500))
            #expect(!flags.isAnswered, "a failure was decided while a valid AUTH held the address's row")
            flags.release.store(true, ordering: .releasing)
            try await holder.value
            #expect(try await guess.value.errorCode == "auth_failed")
            await valid.close()
            await guesser.close()
        }
    }

    @Test func aConnectionWithoutAValidHeaderIsClosedUnanswered() async throws {
        try await TestServer.run(configuration: Self.configuration) { port in
            for opening in ["a1 PING\n", "PROXY TCP4 nonsense\r\na1 PING\n", "GET / HTTP/1.1\r\n\r\n"] {
                let client = try await LineClient.connect(port: port)
                try await client.sendRaw(opening)
                let lines = try #require(await client.linesUntilClosed(), "still open after \(opening.debugDescription)")
                #expect(!lines.contains { $0.tag == "a1" }, "\(opening.debugDescription) answered: \(lines)")
            }
            // A header and a request in one packet: the request is read after the header.
            let client = try await LineClient.connect(port: port)
            try await client.sendBytes(Self.header(from: Self.bystander, binary: false) + Array("a1 PING\n".utf8))
            #expect(try await client.nextLine().kind == "HELLO")
            #expect(try await client.nextLine().tag == "a1")
            await client.close()
        }
    }
}

/// What a test's tasks tell each other about a row held in a transaction of its own.
private final class HoldFlags: Sendable {
    /// The holder is to let go.
    let release = Atomic<Bool>(false)
    /// The holder has let go.
    let letGo = Atomic<Bool>(false)
    /// The request made while the row was held has its answer.
    let answered = Atomic<Bool>(false)

    var hasLetGo: Bool { letGo.load(ordering: .acquiring) }
    var isAnswered: Bool { answered.load(ordering: .acquiring) }
}
