import Foundation
import Logging
import UnixSignals

/// Makes `laurel serve` exit 0 within the grace period after SIGTERM or SIGINT, whatever its clients or a stuck
/// database request do. The graceful shutdown (stop accepting, answer what was read, `BYE shutdown`) normally ends
/// long before; if it has not, the process exits anyway: every acknowledged log is committed already, and what
/// was not acknowledged a client retries.
enum ShutdownDeadline {
    /// Watches for the first signal; cancel the task once the graceful shutdown has finished.
    static func watch(grace: Duration, logger: Logger) -> Task<Void, Never> {
        Task {
            for await _ in await UnixSignalsSequence(trapping: .sigterm, .sigint) {
                do {
                    try await Task.sleep(for: grace)
                } catch {
                    return
                }
                logger.warning("the graceful shutdown did not finish within the grace period; exiting", metadata: ["grace": "\(grace)"])
                exit(0)
            }
        }
    }
}
