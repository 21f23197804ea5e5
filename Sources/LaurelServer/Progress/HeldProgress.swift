import LaurelCore
import LaurelStore
import Synchronization

/// What one user's session holds of the user's progress between requests, and whether it is still the user's newest
/// version. Every write moves the version on and is announced to every instance; a session told of a newer version
/// than it holds keeps what it held as *behind*, to catch up from (a commit decided against it would come back stale
/// anyway), or adds the change the write announced (``AnnouncedChange``).
final class HeldProgress: Sendable {
    private struct Held {
        var progress: SessionProgress?
        /// Whether another instance (or the operators' SQL) has written the user while this session held it: from
        /// then on the session's own writes announce their changes, so that the other instance adds them too.
        var sharedWithOthers = false
        /// Whether a write of this session has begun to commit. Where other instances run, a session's first
        /// write announces its change whatever else is known: a device of the user connected to another
        /// instance first has a session there that holds the version before it, which adds the change instead of
        /// reading the write back at its next request (and, having added one, announces its own writes in return).
        var firstWriteBegun = false
        /// The newest push seq that came with a change another instance announced (``add(_:version:lastSeq:)``):
        /// those pushes were stored there, and nothing here is about to deliver them.
        var addedThroughSeq: Int64 = .min
        /// The version a commit of this instance was decided at, while it is in flight: the change announced for the
        /// version after it is most likely that commit's own, heard before the commit returned.
        var committingFrom: Int64?
        /// The newest version any write announced for the user.
        var newestAnnounced: Int64 = .min
        /// The newest push seq any write announced for the user.
        var newestSeq: Int64 = .min

        /// Whether `progress` is as new as every write announced.
        func isCurrent(_ progress: SessionProgress) -> Bool {
            progress.version >= newestAnnounced && progress.position.lastSeq >= newestSeq
        }
    }

    private let held = Mutex(Held())

    /// The progress held, when no newer version was announced.
    var current: SessionProgress? {
        held.withLock { held in
            guard let progress = held.progress, held.isCurrent(progress) else { return nil }
            return progress
        }
    }

    /// The progress held, current or not.
    var any: SessionProgress? {
        held.withLock { $0.progress }
    }

    /// The last push seq of the progress held, when a write of this instance stored it (not when it came with a
    /// change another instance announced).
    var lastSeqStoredHere: Int64? {
        held.withLock { held in
            guard let lastSeq = held.progress?.position.lastSeq, lastSeq > held.addedThroughSeq else { return nil }
            return lastSeq
        }
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

    /// A commit of a write decided at `version` begins: until ``endCommit()`` a change announced for the next version
    /// is left alone (it is most likely the commit's own, and the session keeps the decided progress itself). Returns
    /// whether the write is to announce its change: what was held was found behind the store before
    /// (``markBehind()``, ``behind``), a change another instance announced was added, or it is the session's first
    /// write and `othersMayHold` (other instances run, so one may hold a session of the user).
    func beginCommit(from version: Int64, othersMayHold: Bool) -> Bool {
        held.withLock { held in
            held.committingFrom = version
            defer { held.firstWriteBegun = true }
            return held.sharedWithOthers || (othersMayHold && !held.firstWriteBegun)
        }
    }

    /// The commit begun by ``beginCommit(from:)`` is over, and what it decided kept.
    func endCommit() {
        held.withLock { $0.committingFrom = nil }
    }

    /// A commit found the version moved on, or something else changed the user: what is held is to be caught up.
    func markBehind() {
        held.withLock { held in
            guard let progress = held.progress else { return }
            held.newestAnnounced = max(held.newestAnnounced, progress.version + 1)
            held.sharedWithOthers = true
        }
    }

    /// The progress held, current or not, to catch up from. One that is not current was found behind the store:
    /// someone else writes the user too, and from now on the session's writes announce their changes.
    var behind: SessionProgress? {
        held.withLock { held in
            guard let progress = held.progress else { return nil }
            if !held.isCurrent(progress) { held.sharedWithOthers = true }
            return progress
        }
    }

    /// Adds the change a write announced, when what is held is the version right before it (and the change can be
    /// added: ``SessionProgress/caughtUp(with:version:lastSeq:)``). True when it was added.
    func add(_ change: AnnouncedChange, version: Int64, lastSeq: Int64) -> Bool {
        let before: SessionProgress? = held.withLock { held in
            guard let progress = held.progress, progress.version == version - 1, held.committingFrom != progress.version else { return nil }
            return progress
        }
        // Made outside the lock (it copies the progress); kept only if nothing newer was kept meanwhile.
        guard let before, let next = before.caughtUp(with: change, version: version, lastSeq: lastSeq) else { return false }
        var incoming: SessionProgress? = next
        return held.withLock { held in
            guard held.progress === before else { return false }
            // Swapped in; what it replaces is let go after the lock.
            swap(&held.progress, &incoming)
            // Another instance writes the user and announces its changes: this one announces its own in return.
            held.sharedWithOthers = true
            if lastSeq > before.position.lastSeq { held.addedThroughSeq = lastSeq }
            return true
        }
    }

    /// Lets go of `progress` (what is held, as the caller read it) and moves the progress's object out of it for a
    /// decision that changes it in place (``SessionProgress/takeShared(from:)``). Nil when something else is held, or
    /// when anyone else holds it too (a read answering from it): it is held again then, and nothing has changed. Until
    /// the decision is kept, nothing is held, and whoever reads the user meanwhile reads the store.
    func take(_ progress: inout SessionProgress) -> SharedProgress? {
        var letGo: SessionProgress? = held.withLock { held in
            guard held.progress === progress else { return nil }
            return held.progress.take()
        }
        guard letGo != nil else { return nil }
        letGo = nil
        if let taken = SessionProgress.takeShared(from: &progress) { return taken }
        keep(progress)
        return nil
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
