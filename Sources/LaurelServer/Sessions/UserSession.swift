import DequeModule
import Foundation
import LaurelCore
import LaurelStore

/// One connected user: all of the user's connections on this instance share it. Its turn makes the user's writing
/// requests run one at a time, in arrival order (actor methods alone would interleave at every `await`); the version
/// every commit checks extends that to other instances.
actor UserSession {
    nonisolated let user: AuthenticatedUser
    /// The user's progress between requests (see `HeldProgress`).
    nonisolated let progress = HeldProgress()
    private var turnTaken = false
    private var waitingForTurn: Deque<CheckedContinuation<Void, Never>> = []

    init(user: AuthenticatedUser) {
        self.user = user
    }

    /// Runs `work` when every earlier caller's work has finished.
    func inTurn<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        if turnTaken {
            await withCheckedContinuation { waitingForTurn.append($0) }
        } else {
            turnTaken = true
        }
        defer { passTurn() }
        return try await work()
    }

    private func passTurn() {
        if waitingForTurn.isEmpty {
            turnTaken = false
        } else {
            waitingForTurn.removeFirst().resume()
        }
    }

    /// Stores the progress held as the user's snapshot, so that the next session adds the facts stored after it
    /// instead of reading every fact. A failure only means the next session reads more.
    nonisolated func storeSnapshot(_ snapshot: ProgressSnapshot, in store: any LaurelStore) {
        let (user, progress) = (user.id, progress)
        progress.noteSnapshot(snapshot.version)
        Task { try? await store.saveSnapshot(snapshot, of: user) }
    }
}
