import CLibPQ
import Logging

/// Sends a connection's notices and warnings (`NOTICE: table "x" does not exist, skipping`) to
/// the log at debug level instead of libpq's default, stderr.
///
/// libpq also hands over this way a FATAL error that arrives while no statement runs, such as
/// the one a backend sends when it is terminated; the connection is finished after that, even
/// though libpq only notices when it next reads the end of the stream.
final class PostgresNoticeLogger {
    let logger: Logger
    private(set) var serverEndedSession = false

    init(logger: Logger) {
        self.logger = logger
    }

    /// Registers this object as the receiver; the connection must keep it alive until `PQfinish`.
    func install(on connection: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = PQsetNoticeReceiver(connection, { context, result in
            guard let context, let result else { return }
            let receiver = Unmanaged<PostgresNoticeLogger>.fromOpaque(context).takeUnretainedValue()
            receiver.log(result)
        }, context)
    }

    private func log(_ result: OpaquePointer) {
        let severity = (PQresultErrorField(result, Int32(UInt8(ascii: "V"))) ?? PQresultErrorField(result, Int32(UInt8(ascii: "S"))))
            .map { String(cString: $0) } ?? "NOTICE"
        if severity == "FATAL" || severity == "PANIC" {
            serverEndedSession = true
        }
        logger.debug(
            "PostgreSQL notice",
            metadata: ["postgres.severity": "\(severity)", "postgres.notice": "\(libpqMessage(PQresultErrorMessage(result)))"]
        )
    }
}
