import Synchronization

/// The process ids of the PostgreSQL backends a pool's connections are served by, as they open and close: a
/// notification whose sender is one of them (`PostgresNotification.senderPID`) came from this process's own work.
public final class PostgresBackendRoster: Sendable {
    private let pids = Mutex<Set<Int32>>([])

    public init() {}

    public func contains(_ pid: Int32) -> Bool {
        pids.withLock { $0.contains(pid) }
    }

    func opened(_ pid: Int32) {
        pids.withLock { _ = $0.insert(pid) }
    }

    func closed(_ pid: Int32) {
        pids.withLock { _ = $0.remove(pid) }
    }
}
