import Foundation
import LaurelJSON
import LaurelProtocol

extension LaurelClient {
    /// Records a fact the user did at `at`: it gets its id, is kept in the outbox store before this returns, and is
    /// sent as soon as the client is connected (now, or after a reconnect), again and again until the server
    /// acknowledges or refuses it. ``outcome(of:)`` and ``outboxOutcomes`` tell what became of it.
    @discardableResult
    public func record(_ fact: OutboxFact, at: Date = Date()) throws -> OutboxEntry {
        let entry = try OutboxEntry(fact: fact, at: at)
        try configuration.outboxStore.save(outbox + [entry])
        outbox.append(entry)
        flushOutbox()
        return entry
    }

    /// The facts recorded and not yet acknowledged, oldest first.
    public var pendingFacts: [OutboxEntry] { outbox }

    /// Waits until the entry with `id` is acknowledged or refused; nil for an id that is not in the outbox and was
    /// not settled lately.
    public func outcome(of id: String) async -> OutboxOutcome? {
        if let settled = recentOutcomes[id] { return settled }
        guard outbox.contains(where: { $0.id == id }) else { return nil }
        return await withCheckedContinuation { outcomeWaiters[id, default: []].append($0) }
    }

    /// Starts sending the outbox when there is something to send, the client is connected and no sending runs.
    func flushOutbox() {
        guard outboxFlush == nil, !outbox.isEmpty, status == .connected else { return }
        outboxFlushes += 1
        let flush = outboxFlushes
        outboxFlush = Task { await self.sendOutbox(flush) }
    }

    /// Sends the outbox in order, `outboxWindow` requests in flight at a time, until it is empty, the connection
    /// goes, or the server asks to wait (then it tries again after the wait).
    /// - Parameter flush: which flush this is; one that a lost connection cancelled leaves the next one alone.
    private func sendOutbox(_ flush: Int) async {
        var retryAfter: Duration?
        sending: while status == .connected, !Task.isCancelled, !outbox.isEmpty {
            let batch = Array(outbox.prefix(configuration.outboxWindow))
            // One task a request, started in order on this actor, so the lines leave in the outbox's order; their
            // answers are read in the same order. (A lost connection fails every one of them at once.)
            let requests = batch.map { entry in
                Task { try await self.exchange(verb: entry.verb, argument: entry.argument) }
            }
            var results: [Result<ServerLine, any Error>] = []
            for request in requests { results.append(await request.result) }
            for (entry, result) in zip(batch, results) {
                switch result {
                case .success(let line) where line.isOK:
                    settle(.acknowledged(entry, answer: line.payload.map(String.init) ?? "null"))
                case .success(let line):
                    let error = Self.error(of: line)
                    switch error.code {
                    case "rate_limited":
                        let wait = line.value?["retry_after_ms"]?.intValue ?? 1000
                        retryAfter = .milliseconds(wait)
                        break sending
                    case "unavailable", "internal":
                        // Nothing was stored, or the outcome is unknown: the same id makes sending again safe.
                        retryAfter = .seconds(1)
                        break sending
                    default:
                        settle(.rejected(entry, error))
                    }
                case .failure:
                    // The connection went: everything left is sent again after the reconnect.
                    break sending
                }
            }
        }
        guard flush == outboxFlushes else { return }
        outboxFlush = nil
        if let retryAfter, status == .connected {
            outboxFlush = Task {
                try? await Task.sleep(for: retryAfter)
                // A lost connection cancelled the wait; the next connection flushes by itself.
                guard !Task.isCancelled else { return }
                self.retryOutbox()
            }
        }
    }

    private func retryOutbox() {
        outboxFlush = nil
        flushOutbox()
    }

    private func settle(_ outcome: OutboxOutcome) {
        let entry: OutboxEntry
        switch outcome {
        case .acknowledged(let settled, _), .rejected(let settled, _): entry = settled
        }
        outbox.removeAll { $0.id == entry.id }
        // A failed save keeps the entry in the store: it is sent again at the next launch and acknowledged as a
        // repeat, which is harmless.
        try? configuration.outboxStore.save(outbox)
        rememberOutcome(outcome, of: entry.id)
        for waiter in outcomeWaiters.removeValue(forKey: entry.id) ?? [] { waiter.resume(returning: outcome) }
        outcomeSinkYield(outcome)
    }
}
