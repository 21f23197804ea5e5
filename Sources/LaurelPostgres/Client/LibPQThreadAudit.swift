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

    /// Declares the current thread a database thread for the rest of its life, and names it `name` (at most 15
    /// bytes, the kernel's limit) so that `top -H`, `perf` and `/proc/PID/task/*/comm` tell it apart.
    ///
    /// Named here, on the thread itself: Foundation's `Thread.name`, set before `start()`, does not reach the
    /// kernel on Linux, and a nameless thread shows the name of the thread that made it (a task's).
    static func markCurrentThreadAsDatabaseThread(named name: String) {
        pthread_setspecific(threadKey, UnsafeRawPointer(bitPattern: 1))
        #if os(Linux)
        // pthread_setname_np is not in the Swift Glibc module (it needs _GNU_SOURCE); the kernel takes the same
        // name written to the thread's own comm file.
        let file = open("/proc/thread-self/comm", O_WRONLY)
        guard file >= 0 else { return }
        defer { close(file) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        #endif
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
