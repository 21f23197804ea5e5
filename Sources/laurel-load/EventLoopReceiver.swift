import LaurelClient
import NIOCore

/// What the closed and the open loop's receivers share: they read a load connection's arrivals on its event loop
/// (``takeArrivals(of:)``), take over the tally its task kept until then (``run(from:after:)``), and give the tally
/// back when the connection ends. A subclass says what an arrival does (``take(_:)``), what starts once
/// the tally is here (``started()``) and what the end counts (``conclude()``, which calls ``finish()``).
///
/// Everything mutable is touched only on the event loop, which is why the class may be sent.
class EventLoopReceiver: ArrivalReceiver, @unchecked Sendable {
    let load: LoadConnection
    let eventLoop: any EventLoop
    /// Nil until the connection's task hands it over; then only the event loop touches it.
    var tally: ConnectionTally?
    /// Lines that arrived before the tally did.
    private var early: [LaurelConnection.Arrival] = []
    private(set) var ended = false
    private let concluded: EventLoopPromise<ConnectionTally>

    init(load: LoadConnection, connection: LaurelConnection) {
        self.load = load
        eventLoop = connection.channel.eventLoop
        concluded = eventLoop.makePromise()
    }

    /// From now on the connection's arrivals come here; false when the connection's event loop is gone (and the
    /// connection with it).
    func takeArrivals(of connection: LaurelConnection) async -> Bool {
        do {
            try await connection.receiveArrivals(with: self).get()
            return true
        } catch {
            return false
        }
    }

    /// Records the lines that came before ``takeArrivals(of:)`` into `tally`, hands it over, and returns it once the
    /// connection has ended.
    func run(from tally: ConnectionTally, after connection: LaurelConnection) async -> ConnectionTally {
        var tally = tally
        for await arrival in connection.arrivals { load.record(arrival, &tally) }
        let handedOver = tally
        eventLoop.execute { self.start(handedOver) }
        // The promise is only ever succeeded.
        return (try? await concluded.futureResult.get()) ?? tally
    }

    final func received(_ arrival: LaurelConnection.Arrival) {
        eventLoop.assertInEventLoop()
        guard tally != nil else {
            early.append(arrival)
            return
        }
        take(arrival)
    }

    final func connectionEnded() {
        eventLoop.assertInEventLoop()
        ended = true
        if tally != nil { conclude() }
    }

    private func start(_ handedOver: ConnectionTally) {
        tally = handedOver
        for arrival in early { take(arrival) }
        early = []
        if ended {
            conclude()
        } else {
            started()
        }
    }

    /// One arrival, with the tally here.
    func take(_ arrival: LaurelConnection.Arrival) {
        preconditionFailure("a receiver says what an arrival does")
    }

    /// The tally is here and the connection still open.
    func started() {}

    /// The connection ended with the tally here: count what is left, then ``finish()``.
    func conclude() {
        finish()
    }

    /// Gives the tally back to the connection's task.
    final func finish() {
        concluded.succeed(tally!)
    }
}
