import Dispatch
import LaurelCore
import LaurelJSON
import LaurelProtocol
import NIOCore

/// One row of the ``VerbTable``: a verb, the argument it takes, who may use it, whether it writes, and its handler.
/// What the row declares is enforced here, the same way for every verb, so handlers hold only what is particular to
/// their verb.
struct VerbRoute: Sendable {
    /// Who may use the verb.
    enum Access: Sendable {
        /// Anyone connected, before AUTH too (AUTH, PING, QUIT); the handler works on the connection itself.
        case anyone
        /// An authenticated user; every other verb is `not_authenticated` before AUTH.
        case user
    }

    /// What the verb does to the user's stored data.
    enum Effect: Sendable {
        /// Runs as soon as it is read; it may answer from the session's memory.
        case reads
        /// Runs in the user's turn: one writing request of the user at a time, in arrival order.
        case writes
    }

    let verb: String
    let access: Access
    let effect: Effect
    /// Reads the line's argument and runs the handler under the row's rules.
    let perform: @Sendable (_ line: RequestLine, _ call: ConnectionCall) async throws -> RequestOutcome
    /// The row's place in ``VerbTable/routes``, where what is kept for each verb (its metrics) is found without
    /// hashing the verb again.
    private(set) var place = 0

    /// The same row at `place`.
    func placed(at place: Int) -> VerbRoute {
        var placed = self
        placed.place = place
        return placed
    }

    /// A verb of the connection itself, usable before AUTH.
    static func connection<Arguments: RequestArguments>(
        _ verb: String, _: Arguments.Type, _ effect: Effect,
        _ handler: @escaping @Sendable (Arguments, ConnectionCall) async throws -> RequestOutcome
    ) -> VerbRoute {
        VerbRoute(verb: verb, access: .anyone, effect: effect) { line, call in
            try await handler(try Arguments(line: line), call)
        }
    }

    /// A verb of an authenticated user.
    static func user<Arguments: RequestArguments>(
        _ verb: String, _: Arguments.Type, _ effect: Effect,
        _ handler: @escaping @Sendable (Arguments, RequestContext) async throws -> RequestOutcome
    ) -> VerbRoute {
        VerbRoute(verb: verb, access: .user, effect: effect) { line, call in
            // The argument is checked first: a malformed request is `invalid_argument` whoever sends it.
            let arguments = try Arguments(line: line)
            guard let context = call.state.context else { throw ProtocolError.notAuthenticated() }
            switch effect {
            case .reads: return try await handler(arguments, context)
            case .writes: return try await context.session.inTurn { try await handler(arguments, context) }
            }
        }
    }

    /// A verb of an authenticated user that takes no fields.
    static func user(
        _ verb: String, _ effect: Effect, _ handler: @escaping @Sendable (RequestContext) async throws -> RequestOutcome
    ) -> VerbRoute {
        user(verb, NoArguments.self, effect) { _, context in try await handler(context) }
    }
}

/// What a verb of the connection itself works on: the request's tag, the connection's state and its writer.
struct ConnectionCall {
    let tag: String
    let connection: ConnectionID
    let state: ConnectionState
    let lineWriter: ConnectionLineWriter
    let channel: any Channel
    let source: ConnectionSource
    let services: ServerResources
}

/// What a connection knows about its client: nothing until AUTH succeeds. Only the connection's own request loop
/// touches it, one request at a time; that it is sendable is for AUTH, which runs in a child task the loop awaits
/// before it reads the next request.
final class ConnectionState: @unchecked Sendable {
    var context: RequestContext?
    var failedAuths = 0
    /// The connection's allowance of requests, whatever their verb, on a clock that starts with the connection.
    private var requestAllowance = TokenBucket()
    /// When the connection opened, in nanoseconds of the monotonic clock (`DispatchTime.uptimeNanoseconds`).
    private let opened = DispatchTime.now().uptimeNanoseconds
    private let requestsPerSecond: Double
    private let burst: Double

    init(requestsPerSecond: Double, burst: Int) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = Double(burst)
    }

    /// Takes one request from the connection's allowance; nil when allowed, else the milliseconds to wait.
    func spendRequest(atUptimeNanoseconds now: UInt64) -> Int? {
        requestAllowance.spend(at: Double(now &- opened) / 1e9, perSecond: requestsPerSecond, burst: burst)
    }
}
