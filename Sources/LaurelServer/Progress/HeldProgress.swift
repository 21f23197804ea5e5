import LaurelStore
import Synchronization

/// What one user's session holds of the user's progress between requests, and whether it is still the user's newest
/// version. Every write moves the version on and is announced to every instance; a session told of a newer version
/// than it holds keeps what it held as *behind*, to catch up from (a commit decided against it would come back stale
/// anyway).
final class HeldProgress: Sendable {
    private struct Held {
        var progress: SessionProgress?
        /// The newest version any write announced for the user.
        var newestAnnounced: Int64 = .min
        /// The newest push seq any write announced for the user.
        var newestSeq: Int64 = .min
    }

    private let held = Mutex(Held())

    /// The progress held, when no newer version was announced.
    var current: SessionProgress? {
        held.withLock { held in
            guard let progress = held.progress, progress.version >= held.newestAnnounced, progress.position.lastSeq >= held.newestSeq else {
                return nil
            }
            return progress
        }
    }

    /// The progress held, current or not.
    var any: SessionProgress? {
        held.withLock { $0.progress }
    }

    /// The last push seq of the progress held.
    var lastSeq: Int64? {
        held.withLock { $0.progress?.position.lastSeq }
    }

    /// Keeps `progress`, unless what is held is newer (a read that loaded it raced with a write).
    func keep(_ progress: SessionProgress) {
        // Swapped in; what it replaces is let go after the lock.
        var incoming: SessionProgress? = progress
        held.withLock { held in
            if let current = held.progress, let version = incoming?.version, current.version > version { return }
            swap(&held.progress, &incoming)
        }
    }

    /// A write (here or elsewhere) moved the user's state to `version`, with pushes stored up to `lastSeq`: a
    /// session that holds less (a push it did not store is a write it did not see) is behind. True when `lastSeq`
    /// is newer than any announced before (the write stored pushes).
    @discardableResult
    func noteCommitted(version: Int64, lastSeq: Int64) -> Bool {
        held.withLock { held in
            held.newestAnnounced = max(held.newestAnnounced, version)
            guard lastSeq > held.newestSeq else { return false }
            held.newestSeq = lastSeq
            return true
        }
    }

    /// A commit found the version moved on, or something else changed the user: what is held is to be caught up.
    func markBehind() {
        held.withLock { held in
            guard let progress = held.progress else { return }
            held.newestAnnounced = max(held.newestAnnounced, progress.version + 1)
        }
    }

    func forget() {
        held.withLock { $0.progress = nil }
    }

    /// Records that a snapshot of `version` is stored.
    func noteSnapshot(_ version: Int64) {
        held.withLock { held in
            if let progress = held.progress, progress.version == version { held.progress = progress.with(snapshotVersion: version) }
        }
    }
}
