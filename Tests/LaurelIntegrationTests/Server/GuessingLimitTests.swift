import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Logging
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

    /// The crowd tests' server: their clients connect first and send their AUTHs only once the address's turn is held,
    /// which on a busy machine can take longer than the 10 s an instance keeps a connection that has not sent one.
    static var crowdConfiguration: ServerConfiguration {
        var configuration = Self.configuration
        configuration.authTimeout = heldUp
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

    /// While an address's allowance is spent its AUTHs are refused whatever their token, a valid one too: the
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

    /// AUTHs from one address take turns on its allowance (a lock of the address's, held while one is decided), so
    /// when many clients of one address connect at once, the last ones' answers can come after the auth timeout.
    /// They sent AUTH in time (protocol.md): they are answered, and stay.
    @Test func anAuthSentInTimeButAnsweredAfterTheAuthTimeoutKeepsItsConnection() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-late")
        let address = "198.18.0.4"
        var configuration = Self.configuration
        configuration.authTimeout = .seconds(1)
        try await TestServer.run(configuration: configuration) { port in
            // Another decision on the address, which takes 2.5 s.
            let flags = HoldFlags()
            let locker = flags.holder(taking: Self.addressTurn, [.text(address)]) { connection in
                try connection.execute("SELECT pg_sleep(2.5)")
            }
            try await flags.waitUntilHeld()
            let client = try await Self.connect(port: port, from: address)
            let answer = try await client.request("AUTH", ["token": .string(user.token)])
            #expect(answer.kind == "OK", "\(answer.raw)")
            try await locker.value
            #expect(try await client.pingSucceeds(), "closed after the AUTH's answer")
        }
    }

    /// An AUTH's turn on its address ends with its decision, before its write (the user's `last_seen_at`) commits:
    /// the next AUTH from the address, valid or not, does not wait for that write. (Each AUTH had held the address's
    /// row until its commit, so a crowd of devices behind one carrier's address was answered a commit at a time.)
    @Test func anAuthDoesNotWaitForTheWriteOfAnotherAuthFromItsAddress() async throws {
        let slow = try await LaurelTestDatabase.createUser("auth-slow")
        let other = try await LaurelTestDatabase.createUser("auth-other")
        let address = "198.18.0.5"
        try await TestServer.run(configuration: Self.configuration) { port in
            let pool = try await LaurelTestDatabase.admin()
            // The slow user's row held, as a long write of another's would hold it, until told to let go.
            let flags = HoldFlags()
            let holder = flags.holder(
                taking: "SELECT 1 FROM laurel.users WHERE id = $1::bigint FOR UPDATE", [.int(Int(slow.id.rawValue))],
                keeping: flags.keepUntilReleased)
            try await flags.waitUntilHeld()
            let slowClient = try await Self.connect(port: port, from: address)
            let slowAnswer = Task { try await slowClient.request("AUTH", ["token": .string(slow.token)], timeout: Self.heldUp) }
            // Decided, and waiting to write.
            try await Self.waitUntil("the slow AUTH waits for its user's row") { try await flags.waiting(in: pool) >= 1 }

            let otherClient = try await Self.connect(port: port, from: address)
            #expect(try await otherClient.request("AUTH", ["token": .string(other.token)]).kind == "OK")
            let guesser = try await Self.connect(port: port, from: address)
            #expect(try await guesser.request("AUTH", ["token": .string("lt_wrong_guess")]).errorCode == "auth_failed")
            #expect(!flags.hasLetGo, "answered only once the slow AUTH's write went through")

            flags.release.store(true, ordering: .releasing)
            try await holder.value
            #expect(try await slowAnswer.value.kind == "OK")
            for client in [slowClient, otherClient, guesser] { await client.close() }
        }
    }

    /// AUTHs from one address are decided after those that reached the address's lock before them, on one instance
    /// (waiting their turn there) and across instances: valid tokens sent while a guess waits for the lock are decided
    /// after the guess, against what the guess left. (A valid AUTH that
    /// went ahead of waiting guesses would be checked while they are refused: a guesser sending many tokens at once
    /// would have the right one let in wherever it stood among them.)
    @Test func validTokensSentBehindAWaitingGuessAreDecidedAfterIt() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-behind")
        let address = "198.18.0.6"
        // A failure back every 10,000 s: however slow the machine, nothing refills during the test.
        var slowRefill = Self.configuration
        slowRefill.failedAuthLimit = FailedAuthLimit(perSecond: 0.0001, burst: 5)
        let configuration = slowRefill
        try await TestServer.withServer(configuration: configuration) { first in
            try await TestServer.withServer(configuration: configuration) { second in
                let pool = try await LaurelTestDatabase.admin()
                // One failure left, dated an hour ahead: nothing refills before the guess spends it either.
                try await pool.withConnection { connection in
                    try connection.execute(
                        "INSERT INTO laurel.auth_failures (source, available, spent_at) VALUES ($1::inet, 1, now() + interval '1 hour')",
                        [.text(address)])
                }
                // A decision on the address in progress, until told to let go.
                let (flags, holder) = try await Self.holdTurn(of: address)
                let guesser = try await Self.connect(port: first.port, from: address)
                let guess = Task { try await guesser.request("AUTH", ["token": .string("lt_wrong_guess")], timeout: Self.heldUp) }
                try await Self.waitUntil("the guess waits for the address's lock") { try await flags.waiting(in: pool) >= 1 }
                let sameInstance = try await Self.connect(port: first.port, from: address)
                let behindOnFirst = Task { try await sameInstance.request("AUTH", ["token": .string(user.token)], timeout: Self.heldUp) }
                try await Self.waitUntil("the valid AUTH on the guess's instance waits its turn there") {
                    first.counter("laurel_auth_turns_waiting") == 1
                }
                let otherInstance = try await Self.connect(port: second.port, from: address)
                let behindOnSecond = Task { try await otherInstance.request("AUTH", ["token": .string(user.token)], timeout: Self.heldUp) }
                try await Self.waitUntil("the valid AUTH on the other instance waits for the address's lock") {
                    try await flags.waiting(in: pool) >= 2
                }

                flags.release.store(true, ordering: .releasing)
                try await holder.value
                #expect(try await guess.value.errorCode == "auth_failed", "the guess spent the last failure")
                for (late, instance) in [(behindOnFirst, "the guess's instance"), (behindOnSecond, "the other instance")] {
                    let answer = try await late.value
                    #expect(answer.errorCode == "rate_limited", "the valid token on \(instance) went ahead of the guess: \(answer.raw)")
                }
                for client in [guesser, sameInstance, otherInstance] { await client.close() }
            }
        }
    }

    /// AUTHs waiting for their address's turn wait on the instance, without a database connection: a crowd from one
    /// address whose turn is held up leaves the pool to everyone else's writes. (Each had held a connection while it
    /// waited for the address's lock, so six of them took all four of the test server's, and a bystander's LOG waited
    /// until the turn was let go.)
    @Test func authsWaitingForTheTurnOfTheirAddressLeaveThePoolToOtherWrites() async throws {
        var users: [TestUser] = []
        for index in 0..<6 { users.append(try await LaurelTestDatabase.createUser("auth-crowd-\(index)")) }
        let crowd = users
        let writer = try await LaurelTestDatabase.createUser("auth-writer")
        let address = "198.18.0.7"
        try await TestServer.withServer(configuration: Self.crowdConfiguration) { server in
            let bystander = try await Self.connect(port: server.port, from: Self.bystander)
            #expect(try await bystander.request("AUTH", ["token": .string(writer.token)]).kind == "OK")
            let pool = try await LaurelTestDatabase.admin()
            let clients = try await Self.connect(crowd.count, port: server.port, from: address)
            // A decision on the address in progress (as on another instance), until told to let go.
            let (flags, holder) = try await Self.holdTurn(of: address)
            let answers = Self.authenticate(clients, with: crowd.map(\.token))
            try await Self.waitUntil("one AUTH waits for the address's lock, five for their turn on the instance") {
                try await flags.waiting(in: pool) == 1 && server.counter("laurel_auth_turns_waiting") == 5
            }

            let log = try await bystander.request(
                "LOG", ["activity": "pushups", "amount": 10, "id": .string(UUID().uuidString)])
            #expect(log.kind == "OK", "\(log.raw)")
            #expect(!flags.hasLetGo, "the LOG was answered only once the address's turn was let go")

            flags.release.store(true, ordering: .releasing)
            try await holder.value
            for answer in answers { #expect(try await answer.value.kind == "OK") }
            #expect(server.counter("laurel_auth_turns_waiting") == 0)
            for client in clients + [bystander] { await client.close() }
        }
    }

    /// A crowd of AUTHs waiting for their address's turn takes a quarter of the places in which the instance answers
    /// first requests, and another address's AUTH is answered meanwhile. (The crowd had taken all 32, so everyone
    /// else's AUTH waited until the address's turn was let go.)
    @Test func aCrowdWaitingForItsAddressLeavesRoomForOtherAddresses() async throws {
        let user = try await LaurelTestDatabase.createUser("auth-elsewhere")
        let address = "198.18.0.8"
        try await TestServer.withServer(configuration: Self.crowdConfiguration) { server in
            let pool = try await LaurelTestDatabase.admin()
            let crowd = try await Self.connect(40, port: server.port, from: address)
            let (flags, holder) = try await Self.holdTurn(of: address)
            let guesses = Self.authenticate(crowd, with: (0..<40).map { "lt_crowd_\($0)" })
            // 8 places: one AUTH at the address's lock, 7 waiting for their turn; the other 32 wait for a place.
            let atTheLock = Atomic<Int>(0)
            try await Self.waitUntil(
                "a quarter of the places taken by the crowd (\(server.counter("laurel_auth_turns_waiting")) waiting for a turn, "
                    + "\(atTheLock.load(ordering: .relaxed)) at the lock, the holder \(flags.hasLetGo ? "gone" : "holding"))"
            ) {
                atTheLock.store(try await flags.waiting(in: pool), ordering: .relaxed)
                return atTheLock.load(ordering: .relaxed) >= 1 && server.counter("laurel_auth_turns_waiting") == 7
            }

            let elsewhere = try await Self.connect(port: server.port, from: Self.bystander)
            #expect(try await elsewhere.request("AUTH", ["token": .string(user.token)]).kind == "OK")
            #expect(!flags.hasLetGo, "answered only once the crowd's address was let go")
            #expect(server.counter("laurel_auth_turns_waiting") == 7, "no more of the crowd got a place meanwhile")

            flags.release.store(true, ordering: .releasing)
            try await holder.value
            for guess in guesses {
                let code = try await guess.value.errorCode
                #expect(code == "auth_failed" || code == "rate_limited")
            }
            for client in crowd + [elsewhere] { await client.close() }
        }
    }

    /// How long an AUTH waiting behind a held turn may wait for its answer: it comes only once the test lets go, after
    /// everything the test does meanwhile (on a busy machine, tens of seconds), and a holder lets go by itself after 30 s.
    static let heldUp = Duration.seconds(120)

    /// Holds `address`'s turn on its allowance (a decision on it in progress, as on another instance) until the
    /// flags' `release`; returns once it is held.
    private static func holdTurn(of address: String) async throws -> (HoldFlags, Task<Void, any Error>) {
        let flags = HoldFlags()
        let holder = flags.holder(taking: addressTurn, [.text(address)], keeping: flags.keepUntilReleased)
        try await flags.waitUntilHeld()
        return (flags, holder)
    }

    /// `count` connections from `address`, each greeted. The crowd tests connect before they hold the address's turn,
    /// so that however long connecting takes on a busy machine, none of it counts against the holder's time.
    static func connect(_ count: Int, port: Int, from address: String) async throws -> [LineClient] {
        var clients: [LineClient] = []
        for _ in 0..<count { clients.append(try await connect(port: port, from: address)) }
        return clients
    }

    /// Each client sends AUTH with its token at once; the answers come as the address's turns allow (`heldUp`).
    static func authenticate(_ clients: [LineClient], with tokens: [String]) -> [Task<LineClient.Line, any Error>] {
        zip(clients, tokens).map { client, token in
            Task { try await client.request("AUTH", ["token": .string(token)], timeout: heldUp) }
        }
    }

    /// Takes an address's turn on its allowance, as the server does for an AUTH from it.
    static let addressTurn = "SELECT pg_advisory_xact_lock(\(PostgresStore.guessingLockClass), hashtext($1::inet::text))"

    /// Polls `condition` every 20 ms for up to 60 s: forty connections' AUTHs reach their places in well under a second
    /// alone. (Twice in full test runs on a busy machine none of them had after 20 and 60 s, "0 waiting, 0 at the
    /// lock": the crowd then connected after the turn was held, and connecting forty clients most likely outlasted the
    /// holder's 30 s, so that the turn was let go and every AUTH answered without waiting. The crowd connects first now,
    /// on a server that keeps unauthenticated connections as long as the AUTHs may wait, the holder keeps the turn 90 s,
    /// and the message says whether it still holds.)
    static func waitUntil(_ what: @autoclosure () -> String, _ condition: () async throws -> Bool) async throws {
        let started = ContinuousClock.now
        while try await !condition() {
            try #require(started.duration(to: .now) < .seconds(60), "never: \(what())")
            try await Task.sleep(for: .milliseconds(20))
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

/// What a test's tasks tell each other about a lock held in a transaction of its own.
private final class HoldFlags: Sendable {
    /// The holder has the lock.
    let held = Atomic<Bool>(false)
    /// The holder's backend.
    let holderPID = Atomic<Int>(0)
    /// The holder is to let go.
    let release = Atomic<Bool>(false)
    /// The holder has let go.
    let letGo = Atomic<Bool>(false)

    var hasLetGo: Bool { letGo.load(ordering: .acquiring) }

    /// A transaction that takes a lock (`lock`, a statement with `parameters`), tells these flags it holds it, and
    /// keeps it while `keeping` runs. On a connection of its own, not the tests' shared pool: the suite's tests run
    /// at once, and holders that took all of that pool's connections kept every test from reading what it waits for.
    func holder(
        taking lock: String, _ parameters: [PostgresValue],
        keeping: @escaping @Sendable (PostgresConnection) throws -> Void
    ) -> Task<Void, any Error> {
        Task {
            let own = PostgresPool(
                configuration: try LaurelTestDatabase.configuration("laurel-tests-holder"), size: 1, logger: Logger(label: "laurel.tests.holder"))
            do {
                try await own.withConnection { connection in
                    try connection.transaction { connection in
                        try connection.execute(lock, parameters)
                        self.holderPID.store(try connection.query("SELECT pg_backend_pid() AS pid").first?.int("pid") ?? 0, ordering: .relaxed)
                        self.held.store(true, ordering: .releasing)
                        try keeping(connection)
                    }
                }
            } catch {
                await own.close()
                throw error
            }
            await own.close()
        }
    }

    /// Keeps a holder's lock until `release` (or 90 s, so that a server that waits for it fails the test instead of
    /// hanging it: longer than `GuessingLimitTests.waitUntil` waits, so that a wait that fails finds it still held,
    /// shorter than `GuessingLimitTests.heldUp`).
    func keepUntilReleased(on connection: PostgresConnection) throws {
        let started = ContinuousClock.now
        while !release.load(ordering: .acquiring), started.duration(to: .now) < .seconds(90) {
            try connection.execute("SELECT pg_sleep(0.02)")
        }
        letGo.store(true, ordering: .releasing)
    }

    /// How many backends wait for the holder (directly, or behind another that waits for it).
    func waiting(in pool: PostgresPool) async throws -> Int {
        let holder = holderPID.load(ordering: .acquiring)
        return try await pool.withConnection { connection in
            try connection.query(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE $1::integer = ANY (pg_blocking_pids(pid))", [.int(holder)]
            ).first?.int("n") ?? 0
        }
    }

    /// Returns once the holder has the lock (20 s at most).
    func waitUntilHeld() async throws {
        try await GuessingLimitTests.waitUntil("the lock is held") { held.load(ordering: .acquiring) }
    }
}
