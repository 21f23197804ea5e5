import Synchronization

/// The engine's state for one user as last saved by this instance, with the version it was saved under. An
/// evaluation whose stored version matches uses it instead of reading and decoding the stored copy; any other
/// writer (another instance, a rebuild) bumps the version, so a stale copy is never used.
final class EngineStateCache: Sendable {
    private let entry = Mutex<(version: Int64, state: EngineState)?>(nil)

    func state(ifVersion version: Int64) -> EngineState? {
        entry.withLock { entry in entry?.version == version ? entry?.state : nil }
    }

    func keep(_ state: EngineState, version: Int64) {
        entry.withLock { $0 = (version, state) }
    }
}
