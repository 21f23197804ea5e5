import Foundation
import LaurelPostgres
import Logging
import Testing

/// The pool's threads carry their names where the kernel shows them (`/proc/PID/task/*/comm`, `top -H`, `perf`), so
/// that a profile tells the database threads from the tasks' and the event loops'.
@Suite struct DatabaseThreadNameTests {
    @Test func poolThreadsAreNamedForTheKernel() async throws {
        // Nothing listens there; a worker connects only when given work, and none is given.
        let pool = PostgresPool(
            configuration: PostgresConfiguration(connectionString: "postgresql://laurel@127.0.0.1:9/laurel", connectTimeoutSeconds: 1),
            size: 3, logger: Logger(label: "laurel.tests.thread-names"))
        var names: Set<String> = []
        for _ in 0..<200 {
            names = Self.threadNames()
            if ["laurel-db-0", "laurel-db-1", "laurel-db-2"].allSatisfy(names.contains) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        await pool.close()
        #expect(names.isSuperset(of: ["laurel-db-0", "laurel-db-1", "laurel-db-2"]), "threads: \(names.sorted())")
    }

    private static func threadNames() -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return Set(tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        })
    }
}
