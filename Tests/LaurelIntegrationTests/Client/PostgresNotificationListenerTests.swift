import NIOConcurrencyHelpers
import Testing
@testable import LaurelPostgres

@Suite("PostgresNotificationListener")
struct PostgresNotificationListenerTests {
    @Test("delivers NOTIFY payloads in order, unicode and quotes included")
    func deliversPayloads() async throws {
        let channel = ClientTestDatabase.uniqueName("client_channel")
        let listener = PostgresNotificationListener(
            configuration: try ClientTestDatabase.configuration(),
            channels: [channel, ClientTestDatabase.uniqueName("client_other")],
            logger: ClientTestDatabase.logger
        )
        let received = NotificationCollector(listener)
        listener.start()
        try await ClientTestDatabase.withPool(size: 1) { pool in
            try await ClientTestDatabase.waitUntilListening(on: channel, received: received, pool: pool)
            let payloads = ["first", "O'Brien \"quoted\" 🏆 日本", "", "last"]
            for payload in payloads {
                try await ClientTestDatabase.notify(channel, payload, pool: pool)
            }
            #expect(try await ClientTestDatabase.eventually { received.payloads(on: channel).suffix(payloads.count) == payloads[...] })
        }
        await listener.stop()
        await received.finished()
    }

    @Test("a handler hears the listening first and then every payload in order, on the listener's thread")
    func handlerHearsWhatTheStreamWould() async throws {
        let channel = ClientTestDatabase.uniqueName("client_channel")
        let received = NotificationCollector()
        let listener = PostgresNotificationListener(
            configuration: try ClientTestDatabase.configuration(), channels: [channel], logger: ClientTestDatabase.logger,
            handler: { events in received.hear(events) })
        listener.start()
        try await ClientTestDatabase.withPool(size: 1) { pool in
            try await ClientTestDatabase.waitUntilListening(on: channel, received: received, pool: pool)
            #expect(received.listenCount == 1)
            // Several in one transaction arrive together, in the order sent.
            try await pool.withConnection { connection in
                try connection.simpleQuery("BEGIN; SELECT pg_notify('\(channel)', 'a'); SELECT pg_notify('\(channel)', 'b'); " +
                    "SELECT pg_notify('\(channel)', 'c'); COMMIT")
            }
            try await ClientTestDatabase.notify(channel, "d", pool: pool)
            #expect(try await ClientTestDatabase.eventually { received.payloads(on: channel).suffix(4) == ["a", "b", "c", "d"] })
        }
        var ended = listener.events.makeAsyncIterator()
        #expect(await ended.next() == nil, "a listener with a handler delivers nothing to its stream")
        await listener.stop()
    }

    @Test("reconnects and listens again after its backend is terminated")
    func survivesTerminatedBackend() async throws {
        let channel = ClientTestDatabase.uniqueName("client_channel")
        let applicationName = ClientTestDatabase.uniqueName("client_listener")
        let listener = PostgresNotificationListener(
            configuration: try ClientTestDatabase.configuration(applicationName: applicationName),
            channels: [channel],
            logger: ClientTestDatabase.logger
        )
        let received = NotificationCollector(listener)
        listener.start()
        try await ClientTestDatabase.withPool(size: 1) { pool in
            try await ClientTestDatabase.waitUntilListening(on: channel, received: received, pool: pool)
            let pid = try await pool.withConnection { connection in
                try connection.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1::text", [.text(applicationName)])[0].int("pid")
            }
            try await ClientTestDatabase.terminateBackend(pid, using: pool)

            var attempt = 0
            let delivered = try await ClientTestDatabase.eventually(timeout: .seconds(15)) {
                attempt += 1
                try await ClientTestDatabase.notify(channel, "after-\(attempt)", pool: pool)
                try await Task.sleep(for: .milliseconds(100))
                return received.payloads(on: channel).contains { $0.hasPrefix("after-") }
            }
            #expect(delivered, "no notification arrived after the listener's backend was terminated")
            // The first connection and the reconnect each said so, before the notifications after them.
            #expect(received.listenCount == 2)
            let newPID = try await pool.withConnection { connection in
                try connection.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1::text", [.text(applicationName)]).first?.int("pid")
            }
            #expect(newPID != nil && newPID != pid)
        }
        await listener.stop()
        await received.finished()
    }

    @Test("stop ends the thread promptly and finishes the stream")
    func stopIsPrompt() async throws {
        let channel = ClientTestDatabase.uniqueName("client_channel")
        let listener = PostgresNotificationListener(
            configuration: try ClientTestDatabase.configuration(),
            channels: [channel],
            logger: ClientTestDatabase.logger
        )
        let received = NotificationCollector(listener)
        listener.start()
        try await ClientTestDatabase.withPool(size: 1) { pool in
            try await ClientTestDatabase.waitUntilListening(on: channel, received: received, pool: pool)
        }
        let clock = ContinuousClock()
        let started = clock.now
        await listener.stop()
        // The thread notices within one poll slice (250 ms); a stop that waited for the connection instead would not
        // return at all. The bound tells the two apart with room for a loaded machine (a run beside a build took
        // 1.9 s), not how fast the machine is.
        #expect(clock.now - started < .seconds(10))
        await received.finished()
    }

    @Test("stop is prompt while the listener waits to reconnect to an unreachable server")
    func stopWhileReconnecting() async throws {
        let listener = PostgresNotificationListener(
            configuration: PostgresConfiguration(connectionString: "postgresql://postgres@127.0.0.1:1/none"),
            channels: ["unreachable"],
            logger: ClientTestDatabase.logger
        )
        let received = NotificationCollector(listener)
        listener.start()
        try await Task.sleep(for: .milliseconds(400))
        let clock = ContinuousClock()
        let started = clock.now
        await listener.stop()
        #expect(clock.now - started < .seconds(1))
        await received.finished()
    }
}

/// Collects everything a listener delivers, so tests can poll for it.
final class NotificationCollector: Sendable {
    private let notifications = NIOLockedValueBox<[PostgresNotification]>([])
    private let listens = NIOLockedValueBox(0)
    private let consumer: Task<Void, Never>?

    /// Collects what the listener's stream delivers.
    init(_ listener: PostgresNotificationListener) {
        let (notifications, listens) = (self.notifications, self.listens)
        let stream = listener.events
        consumer = Task {
            for await event in stream { Self.collect(event, notifications: notifications, listens: listens) }
        }
    }

    /// Collects what a listener made with ``hear(_:)`` as its handler delivers.
    init() {
        consumer = nil
    }

    func hear(_ events: [PostgresNotificationListener.Event]) {
        for event in events { Self.collect(event, notifications: notifications, listens: listens) }
    }

    private static func collect(
        _ event: PostgresNotificationListener.Event, notifications: NIOLockedValueBox<[PostgresNotification]>, listens: NIOLockedValueBox<Int>
    ) {
        switch event {
        case .listening: listens.withLockedValue { $0 += 1 }
        case .notification(let notification): notifications.withLockedValue { $0.append(notification) }
        }
    }

    /// How many times the listener announced that it LISTENs (its first connection and every reconnect).
    var listenCount: Int {
        listens.withLockedValue { $0 }
    }

    func payloads(on channel: String) -> [String] {
        notifications.withLockedValue { $0.filter { $0.channel == channel }.map(\.payload) }
    }

    /// Returns once the stream has ended.
    func finished() async {
        await consumer?.value
    }
}
