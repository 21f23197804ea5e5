import Foundation
import Synchronization

/// One pool connection held for a unit of work that runs in several steps with other work between them (a
/// transaction that holds a lock while the caller decides what to write). Each step still runs on the connection's
/// own database thread; between steps that thread waits for the next one, so the connection is never used by two
/// threads and never leaves its thread.
public final class PostgresLease: Sendable {
    private struct Step: Sendable {
        let run: @Sendable (PostgresConnection) -> Void
        let fail: @Sendable (any Error) -> Void
    }

    private struct State {
        var steps: [Step] = []
        var finished = false
        /// Set when no connection could be had: every step fails with it.
        var failure: (any Error)?
    }

    private let state = Mutex(State())
    /// Wakes the database thread when a step arrives or the lease finishes.
    private let arrival = DispatchSemaphore(value: 0)

    init() {}

    /// Runs `body` as the next step on the held connection.
    public func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let step = Step(
                run: { connection in continuation.resume(with: Result { try body(connection) }) },
                fail: { error in continuation.resume(throwing: error) })
            let refusal: (any Error)? = state.withLock { state in
                if let failure = state.failure { return failure }
                if state.finished { return PostgresError.poolClosed }
                state.steps.append(step)
                return nil
            }
            if let refusal {
                step.fail(refusal)
            } else {
                arrival.signal()
            }
        }
    }

    /// Runs steps on `connection` until the lease is finished (on the database thread).
    func serve(on connection: PostgresConnection) {
        while true {
            arrival.wait()
            let next: Step?? = state.withLock { state in
                if !state.steps.isEmpty { return state.steps.removeFirst() }
                return state.finished ? .some(nil) : nil
            }
            switch next {
            case .some(.some(let step)): step.run(connection)
            case .some(.none): return
            case .none: continue
            }
        }
    }

    /// Takes no more steps; the database thread returns the connection once the steps before are done.
    func finish() {
        state.withLock { $0.finished = true }
        arrival.signal()
    }

    /// No connection could be had: the steps waiting, and any to come, fail with `error`.
    func fail(_ error: any Error) {
        let waiting: [Step] = state.withLock { state in
            state.failure = error
            defer { state.steps.removeAll() }
            return state.steps
        }
        for step in waiting { step.fail(error) }
    }
}

extension PostgresPool {
    /// Runs `body` with one connection held for all the steps it runs on the lease; the connection returns to the
    /// pool (a transaction left open rolled back) when `body` ends.
    public func withLease<T: Sendable>(_ body: (PostgresLease) async throws -> T) async throws -> T {
        let lease = PostgresLease()
        let held = Task {
            do {
                try await withConnection { connection in lease.serve(on: connection) }
            } catch {
                lease.fail(error)
            }
        }
        defer { lease.finish() }
        let value = try await body(lease)
        lease.finish()
        await held.value
        return value
    }
}
