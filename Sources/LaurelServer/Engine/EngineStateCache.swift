import LaurelCore
import LaurelStore
import Synchronization

/// What one user's session holds of the engine between requests, tagged with the user's state version it
/// belongs to: either everything a LOG needs (`SessionProgress`, kept after a LOG or a load), or only the
/// engine state (kept by an evaluation in a transaction, which may have changed anything else). Any writer
/// moves the version on, so a stale entry is never stored over: a LOG evaluated against it comes back stale.
final class EngineStateCache: Sendable {
    private enum Entry {
        case progress(SessionProgress)
        case state(version: Int64, EngineState)
    }

    private let entry = Mutex<Entry?>(nil)

    func state(ifVersion version: Int64) -> EngineState? {
        entry.withLock { entry in
            switch entry {
            case .progress(let progress) where progress.version == version: progress.state
            case .state(let kept, let state) where kept == version: state
            default: nil
            }
        }
    }

    /// The session's progress, when it holds all of it.
    var progress: SessionProgress? {
        entry.withLock { entry in
            if case .progress(let progress) = entry { return progress }
            return nil
        }
    }

    func keep(_ state: EngineState, version: Int64) {
        entry.withLock { $0 = .state(version: version, state) }
    }

    func keep(_ progress: SessionProgress) {
        entry.withLock { $0 = .progress(progress) }
    }

    func forget() {
        entry.withLock { $0 = nil }
    }

    /// Stores the engine state held for the user, if it is newer than the stored one would be (a failure only
    /// means the next session rebuilds it from the facts).
    func checkpoint(user: UserID, in store: any LaurelStore) async {
        guard let progress, progress.savedVersion != progress.version, let text = try? progress.state.encoded() else { return }
        try? await store.saveProgressState(user: user, state: text, version: progress.version)
    }

    /// Forgets the full progress (keeping its engine state for the version it had), after a writer elsewhere.
    func demote() {
        entry.withLock { entry in
            if case .progress(let progress) = entry { entry = .state(version: progress.version, progress.state) }
        }
    }
}
