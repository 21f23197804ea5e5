import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps track of where libpq runs. Blocking libpq calls belong on the pool's and the listener's
/// own threads, never on the Swift cooperative pool or an event loop; every wrapper that calls
/// into libpq asks `check()` first, which counts and logs a call made on any other thread.
public enum LibPQThreadAudit {
    /// How many libpq calls were made outside database threads since the process started.
    public static var violations: Int {
        violationCount.load(ordering: .relaxed)
    }

    /// Counts (and logs) the call when the current thread is not a database thread.
    static func check(_ call: StaticString = #function) {
        guard !isDatabaseThread else { return }
        let count = violationCount.wrappingAdd(1, ordering: .relaxed).newValue
        logger.error(
            "libpq called outside a database thread",
            metadata: ["libpq.call": "\(call)", "libpq.violations": "\(count)"]
        )
    }

    /// Declares the current thread a database thread for the rest of its life.
    static func markCurrentThreadAsDatabaseThread() {
        pthread_setspecific(threadKey, UnsafeRawPointer(bitPattern: 1))
    }

    static var isDatabaseThread: Bool {
        pthread_getspecific(threadKey) != nil
    }

    private static let violationCount = Atomic<Int>(0)
    private static let logger = Logger(label: "laurel.postgres.thread-audit")
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}
