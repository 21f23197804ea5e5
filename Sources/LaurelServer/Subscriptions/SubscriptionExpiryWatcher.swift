import LaurelStore
import Logging
import ServiceLifecycle

/// Notices, twice a second, premium periods that have ended and has the store tell their users, so a lapse
/// reaches connected clients within a second without any work per connection. Every instance runs one; the
/// store makes sure each end is announced once.
public struct SubscriptionExpiryWatcher: Service, CustomStringConvertible {
    private let store: any LaurelStore
    private let interval: Duration
    private let logger: Logger

    public init(store: any LaurelStore, interval: Duration = .milliseconds(500), logger: Logger) {
        self.store = store
        self.interval = interval
        self.logger = logger
    }

    public var description: String { "SubscriptionExpiryWatcher" }

    public func run() async throws {
        // Sleeping is cancelled by graceful shutdown; there is nothing to finish then.
        try? await cancelWhenGracefulShutdown {
            var failing = false
            while !Task.isCancelled {
                failing = await announceOnce(failingBefore: failing)
                try await Task.sleep(for: interval)
            }
        }
    }

    /// One round; returns whether it failed. A failure is logged when it starts and when it ends, not every
    /// round: the database may be away for a while, and the ends wait there to be announced once it is back.
    private func announceOnce(failingBefore: Bool) async -> Bool {
        do {
            let stored = try await store.announceExpiredSubscriptions()
            if failingBefore { logger.info("announcing ended subscriptions again") }
            if stored > 0 { logger.debug("announced ended subscriptions", metadata: ["pushes": "\(stored)"]) }
            return false
        } catch {
            if !failingBefore && !Task.isCancelled {
                logger.warning("could not announce ended subscriptions", metadata: ["error": "\(error)"])
            }
            return true
        }
    }
}
