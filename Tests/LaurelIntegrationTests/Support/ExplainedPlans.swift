import Foundation
import LaurelPostgres
import Logging
import Synchronization

/// The plans PostgreSQL's `auto_explain` reports, as notices, for every statement a connection runs (those inside
/// functions included), with the rows each plan node handled: what a test reads to tell a plan whose work grows
/// with its batch from one whose work grows with the batch's square, without timing anything.
///
/// Make a pool with ``logger``, then call ``report(on:)`` on its connection: the connection's notices are logged
/// (at debug level), and this keeps the plans among them.
final class ExplainedPlans: Sendable {
    private let plans = Mutex<[String]>([])

    /// A logger that hands the connection's notices to this object.
    var logger: Logger {
        var logger = Logger(label: "laurel.tests.explained-plans") { _ in NoticeRecorder(plans: self) }
        logger.logLevel = .debug
        return logger
    }

    /// Loads `auto_explain` on `connection` and has it report, as notices, the plan of every statement that runs there
    /// from now on, with the rows each node handled.
    func report(on connection: PostgresConnection) throws {
        for setting in [
            "LOAD 'auto_explain'", "SET auto_explain.log_min_duration = 0", "SET auto_explain.log_nested_statements = on",
            "SET auto_explain.log_analyze = on", "SET auto_explain.log_timing = off", "SET auto_explain.log_level = notice",
        ] {
            try connection.execute(setting)
        }
    }

    /// Forgets the plans reported so far.
    func reset() {
        plans.withLock { $0.removeAll() }
    }

    /// The plans reported since the last ``reset()``, each as auto_explain's text.
    var reported: [String] {
        plans.withLock { $0 }
    }

    /// The rows all join filters of the reported plans compared and threw away: in a join that finds each row's
    /// partner by key it stays near the rows joined; a nested loop that compares every row of one side with every
    /// row of the other throws away nearly the product of the two.
    var rowsRemovedByJoinFilters: Int {
        reported.reduce(0) { total, plan in
            total + plan.split(separator: "\n").reduce(0) { sum, line in
                guard let range = line.range(of: "Rows Removed by Join Filter: ") else { return sum }
                return sum + (Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0)
            }
        }
    }

    fileprivate func keep(_ plan: String) {
        plans.withLock { $0.append(plan) }
    }
}

/// Keeps the `auto_explain` notices among what a connection logs.
private struct NoticeRecorder: LogHandler {
    let plans: ExplainedPlans
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard case .string(let notice)? = event.metadata?["postgres.notice"], notice.contains("duration:") else { return }
        plans.keep(notice)
    }
}
