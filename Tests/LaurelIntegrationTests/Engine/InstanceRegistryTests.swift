import Foundation
import LaurelCore
import LaurelServer
import LaurelStore
import Logging
import Synchronization
import Testing
@testable import LaurelPostgres

/// An instance's commits of users' writes are announced only while another instance is registered
/// (`laurel.commit_changes`, `laurel.register_instance`): alone, it sent a notification with every batch that
/// nobody read. A registering instance waits for every commit that found it missing, so none of them is one it
/// could read too early. Each test has a database of its own: the shared one has the other tests' servers registered.
@Suite struct InstanceRegistryTests {
    static let logger = Logger(label: "laurel.tests.instances")

    @Test func aLoneInstanceAnnouncesNoWritesUntilAnotherRegisters() async throws {
        try await LaurelTestDatabase.withFreshDatabaseReachedBy { admin, address in
            try await PostgresStore(pool: admin).installCatalog(try ShippedCatalogs.load("standfit"))
            var users: [TestUser] = []
            for _ in 0..<3 { users.append(try await LaurelTestDatabase.createUser("instances", on: admin)) }
            let instance = Self.pool(of: "a", at: address)
            try await Self.run("SELECT laurel.register_instance('a')", on: admin)

            let (alone, unheard) = try await PushAnnouncementTests.store(
                [UserCommitTests.commit(users[0], version: 0, logID: "lone-1")], listening: instance)
            guard case .success(.committed)? = alone.first else { Issue.record("not committed: \(alone)"); return }
            #expect(unheard.isEmpty, "\(unheard.map(\.payload))")

            try await Self.run("SELECT laurel.register_instance('b')", on: admin)
            let (_, heard) = try await PushAnnouncementTests.store(
                [UserCommitTests.commit(users[1], version: 0, logID: "lone-2")], listening: instance)
            #expect(heard.map(\.payload).contains { $0.hasPrefix(#"{"event":"written","#) && $0.contains("[[\(users[1].id.rawValue),1,") })

            try await Self.run("SELECT laurel.unregister_instance('b')", on: admin)
            let (_, unheardAgain) = try await PushAnnouncementTests.store(
                [UserCommitTests.commit(users[2], version: 0, logID: "lone-3")], listening: instance)
            #expect(unheardAgain.isEmpty)

            // A connection that names no instance announces, registered instances or none.
            let (_, unnamed) = try await PushAnnouncementTests.store(
                [UserCommitTests.commit(users[0], version: 1, logID: "lone-4")], listening: admin)
            #expect(unnamed.count == 1)
            await instance.close()
        }
    }

    /// The commit below finds no other instance and announces nothing; the registration that starts while it is open
    /// must wait for it, and end after it.
    @Test func aRegistrationWaitsForTheCommitsThatFoundNoOtherInstance() async throws {
        try await LaurelTestDatabase.withFreshDatabaseReachedBy { admin, address in
            try await PostgresStore(pool: admin).installCatalog(try ShippedCatalogs.load("standfit"))
            let user = try await LaurelTestDatabase.createUser("instances", on: admin)
            let instance = Self.pool(of: "a", at: address)
            var registeringAddress = address
            registeringAddress.applicationName = "laurel-tests-registering"
            let registering = PostgresPool(configuration: registeringAddress, size: 1, logger: Self.logger)
            let order = StepOrder()
            let sawRegistration = try await instance.transaction { connection in
                let stored = try PostgresStore.storeCommits([UserCommitTests.commit(user, version: 0, logID: "open-1")], on: connection)
                guard case .success(.committed)? = stored.first else { return false }
                Task {
                    try await Self.run("SELECT laurel.register_instance('b')", on: registering)
                    order.note("registered")
                }
                // The registration is under way (trying for the lock) and given time to end, which it must not.
                for _ in 0..<1_000 {
                    // Within a transaction the activity view keeps what it first read, unless cleared.
                    _ = try connection.query("SELECT pg_stat_clear_snapshot()")
                    let registering = try connection.query(
                        """
                        SELECT count(*) AS n FROM pg_stat_activity
                         WHERE application_name = 'laurel-tests-registering' AND state = 'active' AND query LIKE '%register_instance%'
                        """)
                    if try registering.first?.int("n") == 1 {
                        usleep(300_000)
                        // Noted before the commit: the registration, once it has the lock, can end before this task
                        // is back from the commit, so a step noted after it would race the registration's.
                        order.note("committing")
                        return true
                    }
                    usleep(10_000)
                }
                return false
            }
            #expect(sawRegistration)
            #expect(try await Eventually.holds { order.steps == ["committing", "registered"] })
            await registering.close()
            await instance.close()
        }
    }

    @Test func theStoreListenerRegistersItsInstanceAndRemovesItWhenItStops() async throws {
        try await LaurelTestDatabase.withFreshDatabaseReachedBy { admin, address in
            let (listener, _) = PostgresStoreEvents.listen(configuration: address, instance: "listening", logger: Self.logger)
            listener.start()
            #expect(try await Eventually.holds { try await Self.registered(on: admin) == ["listening"] })
            await listener.stop()
            #expect(try await Self.registered(on: admin) == [])

            // An instance that crashed keeps its row until the next registration finds its listening backend gone.
            var crashingAddress = address
            crashingAddress.applicationName = "laurel-tests-crashing"
            let crashing = PostgresPool(configuration: crashingAddress, size: 1, logger: Self.logger)
            try await Self.run("SELECT laurel.register_instance('crashed')", on: crashing)
            try await Self.run(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'laurel-tests-crashing'", on: admin)
            // The signal is sent, not yet acted on: until the backend has gone, the next registration still sees it.
            #expect(try await Eventually.holds {
                try await admin.withConnection { connection in
                    try connection.query("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'laurel-tests-crashing'")
                        .first?.int("n") == 0
                }
            })
            #expect(try await Self.registered(on: admin) == ["crashed"])
            try await Self.run("SELECT laurel.register_instance('next')", on: admin)
            #expect(try await Self.registered(on: admin) == ["next"])
            await crashing.close()
        }
    }

    /// A pool of the instance `name`, as a server's: its connections say which instance they commit for.
    static func pool(of name: String, at address: PostgresConfiguration) -> PostgresPool {
        var configuration = address
        configuration.sessionSettings = ["laurel.instance": name]
        return PostgresPool(configuration: configuration, size: 1, logger: logger)
    }

    static func run(_ sql: String, on pool: PostgresPool) async throws {
        _ = try await pool.withConnection { connection in try connection.query(sql) }
    }

    static func registered(on pool: PostgresPool) async throws -> [String] {
        try await pool.withConnection { connection in
            try connection.query("SELECT id FROM laurel.instances ORDER BY id").map { try $0.string("id") }
        }
    }
}

/// Steps noted from several tasks, in the order they happened.
private final class StepOrder: Sendable {
    private let noted = Mutex<[String]>([])

    func note(_ step: String) {
        noted.withLock { $0.append(step) }
    }

    var steps: [String] {
        noted.withLock { $0 }
    }
}
