import LaurelCore
import LaurelStore
import Synchronization

/// What one user's session holds of the engine between requests, tagged with the user's state version it
/// belongs to: either everything a LOG or a read needs (`SessionProgress`), or only the engine state (kept by an
/// evaluation in a transaction, which may have changed anything else). Every write moves the version on and
/// announces the new one to every instance; a session told of a newer version than it holds gives up its
/// `SessionProgress` (reads and LOGs then load it afresh), and a LOG evaluated against a stale one comes back
/// stale from the store anyway.
final class EngineStateCache: Sendable {
    private enum Entry {
        case progress(SessionProgress)
        /// A progress that was whole at its version, before a newer version was announced: LOG commits elsewhere
        /// may be all that changed since, and then it catches up with them (`SessionProgress.caughtUp`).
        case behind(SessionProgress)
        case state(version: Int64, EngineState)
    }

    private struct Held {
        var entry: Entry?
        /// The newest version any write announced for the user.
        var newestAnnounced: Int64 = .min
    }

    private let held = Mutex(Held())

    /// The engine state held, whatever its version.
    var newestState: (version: Int64, state: EngineState)? {
        held.withLock { held in
            switch held.entry {
            case .progress(let progress), .behind(let progress): (progress.version, progress.state)
            case .state(let version, let state): (version, state)
            case nil: nil
            }
        }
    }

    /// The session's progress, when it holds all of it and no newer version was announced.
    var progress: SessionProgress? {
        held.withLock { held in
            if case .progress(let progress) = held.entry { return progress }
            return nil
        }
    }

    /// The progress held before a newer version was announced, to catch up from.
    var progressBehind: SessionProgress? {
        held.withLock { held in
            if case .behind(let progress) = held.entry { return progress }
            return nil
        }
    }

    func keep(_ state: EngineState, version: Int64) {
        held.withLock { $0.entry = .state(version: version, state) }
    }

    /// Keeps `progress`, unless what is held is newer (a read that loaded it raced with a write).
    func keep(_ progress: SessionProgress) {
        held.withLock { held in
            switch held.entry {
            case .progress(let current), .behind(let current): if current.version > progress.version { return }
            default: break
            }
            held.entry = progress.version >= held.newestAnnounced
                ? .progress(progress) : .state(version: progress.version, progress.state)
        }
    }

    func forget() {
        held.withLock { $0.entry = nil }
    }

    /// Forgets the full progress (keeping its engine state for the version it had), after a writer elsewhere.
    func demote() {
        held.withLock { Self.demote(&$0) { _ in true } }
    }

    /// A write moved the user's state to `version` (this instance's own writes included). The progress held is
    /// kept to catch up from: the store tells whether only LOG commits came in between.
    func noteVersion(_ version: Int64) {
        held.withLock { held in
            held.newestAnnounced = max(held.newestAnnounced, version)
            if case .progress(let progress) = held.entry, progress.version < version { held.entry = .behind(progress) }
        }
    }

    /// A commit found the user's version moved on: the progress held is kept to catch up from.
    func noteBehind() {
        held.withLock { held in
            if case .progress(let progress) = held.entry { held.entry = .behind(progress) }
        }
    }

    /// Pushes up to `seq` were stored for the user; ones the session did not store itself may have changed what it
    /// shows. The progress is kept to catch up from: the store tells LOG commits elsewhere (whose pushes these
    /// mostly are) from anything else, an operator's grant or an expiry, which makes the session load it all.
    func noteStoredPushes(through seq: Int64) {
        held.withLock { held in
            if case .progress(let progress) = held.entry, progress.lastSeq < seq { held.entry = .behind(progress) }
        }
    }

    /// Keeps only the engine state of the progress held, when `outdated` says the rest may be stale.
    private static func demote(_ held: inout Held, if outdated: (SessionProgress) -> Bool) {
        switch held.entry {
        case .progress(let progress) where outdated(progress), .behind(let progress) where outdated(progress):
            held.entry = .state(version: progress.version, progress.state)
        default:
            break
        }
    }

    /// Stores the engine state held for the user, if it is newer than the stored one (a failure only means the
    /// next session rebuilds it from the facts).
    func checkpoint(user: UserID, in store: any LaurelStore) async {
        guard let progress, progress.savedVersion < progress.version, let text = try? progress.state.encoded() else { return }
        try? await store.saveProgressState(user: user, state: text, version: progress.version)
    }
}
