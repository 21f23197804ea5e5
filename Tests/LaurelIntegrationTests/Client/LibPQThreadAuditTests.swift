import NIOConcurrencyHelpers
import Testing
@testable import LaurelPostgres

@Suite("LibPQThreadAudit")
struct LibPQThreadAuditTests {
    @Test("pool and listener work calls libpq only on database threads; a call from elsewhere is counted")
    func auditsThreads() async throws {
        let table = ClientTestDatabase.uniqueName("client_audit")
        let channel = ClientTestDatabase.uniqueName("client_audit")
        let listener = PostgresNotificationListener(
            configuration: try ClientTestDatabase.configuration(),
            channels: [channel],
            logger: ClientTestDatabase.logger
        )
        let received = NotificationCollector(listener)
        listener.start()
        try await ClientTestDatabase.withPool(size: 2) { pool in
            try await pool.transaction { connection in
                try connection.simpleQuery("CREATE TABLE \(table) (id bigint PRIMARY KEY)")
                try connection.execute("INSERT INTO \(table) VALUES ($1::bigint)", [1])
            }
            await #expect(throws: PostgresError.self) {
                try await pool.withConnection { connection in
                    try connection.execute("INSERT INTO \(table) VALUES ($1::bigint)", [1])
                }
            }
            try await ClientTestDatabase.waitUntilListening(on: channel, received: received, pool: pool)
            try await pool.withConnection { try $0.simpleQuery("DROP TABLE \(table)") }
        }
        await listener.stop()
        await received.finished()
        #expect(LibPQThreadAudit.violations <= ClientTestDatabase.deliberateAuditViolations.withLockedValue { $0 })

        // Now on purpose from the test's own thread (a cooperative-pool thread): connecting,
        // querying and closing are three counted calls.
        ClientTestDatabase.deliberateAuditViolations.withLockedValue { $0 += 3 }
        let before = LibPQThreadAudit.violations
        #expect(!LibPQThreadAudit.isDatabaseThread)
        do {
            let connection = try PostgresConnection.connect(
                configuration: try ClientTestDatabase.configuration(),
                logger: ClientTestDatabase.logger
            )
            #expect(try connection.query("SELECT 1 AS one")[0].int("one") == 1)
        }
        #expect(LibPQThreadAudit.violations == before + 3)
    }
}
