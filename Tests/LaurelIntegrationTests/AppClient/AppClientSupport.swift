import Foundation
import LaurelClient
import NIOSSL
import Synchronization
import Testing

/// What the tests of the client library share: a client of a test user with short reconnect waits, and waiting
/// for a condition with a deadline instead of for ever.
enum AppClient {
    static func make(
        port: Int, token: String, transport: LaurelTransport = .tcp, tls: TLSConfiguration? = nil,
        store: any OutboxStore = InMemoryOutboxStore(), lastSeenPush: Int? = nil
    ) throws -> LaurelClient {
        try LaurelClient(configuration: LaurelClientConfiguration(
            host: "127.0.0.1", port: port, transport: transport, token: token, tls: tls, serverHostname: tls == nil ? nil : "localhost",
            reconnect: ReconnectPolicy(initialDelay: .milliseconds(50), maxDelay: .milliseconds(400), jitter: 0.5),
            outboxStore: store, lastSeenPush: lastSeenPush))
    }

    /// `body`, again while it fails with `connectionLost` (the server may close an idle connection just as a request
    /// leaves): for requests that are safe to repeat, such as a LOG with an id or a read.
    /// Patient by time, not by a count of attempts: on a busy machine (the whole suite at once on two cores) a client
    /// can take longer than a short idle time between its AUTH's answer and its request, and a burst of such tries
    /// used to run out of attempts in seconds.
    static func retrying<T>(for patience: Duration = .seconds(60), _ body: () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + patience
        while true {
            do {
                return try await body()
            } catch LaurelClientError.connectionLost where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Waits until `condition` holds, checking every 20 ms; records a failure and throws after `timeout`.
    static func eventually(
        _ what: String, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("not within \(timeout): \(what)", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The pushes a client delivered, collected as they come.
final class PushCollector: Sendable {
    /// Where the collecting task puts them.
    final class Received: Sendable {
        let pushes = Mutex<[Push]>([])
    }

    private let task: Task<Void, Never>
    private let received = Received()

    init(_ client: LaurelClient) {
        let received = self.received
        task = Task {
            for await push in client.pushes { received.pushes.withLock { $0.append(push) } }
        }
    }

    var pushes: [Push] { received.pushes.withLock { $0 } }

    func stop() { task.cancel() }
}
