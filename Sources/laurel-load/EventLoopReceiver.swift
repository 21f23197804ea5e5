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

    /// Records the lines that came before ``takeArrivals(of:)`` into `tally`, hands it over, and puts it back once
    /// the connection has ended.
    ///
    /// The tally is moved, not copied: a copy left behind (in this task, or in the closure that carries it) would
    /// share the latency histogram's counts, some 70 KB made ahead by `prepareForLoad(sendLag:)`, and the first answer
    /// recorded on the event loop would copy them into fresh memory. With 2,000 connections that was 140 MB copied
    /// and page-faulted in the open loop's first 0.4 s, a quarter of the client's CPU there, on the cores the
    /// measured server shares.
    func run(from tally: inout ConnectionTally, after connection: LaurelConnection) async {
        for await arrival in connection.arrivals { load.record(arrival, &tally) }
        let handOver = TallyHandOver(consume tally)
        eventLoop.execute { self.start(handOver.take()) }
        // The promise is only ever succeeded.
        tally = (try? await concluded.futureResult.get()) ?? ConnectionTally(index: load.index, userIndex: load.user.index)
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

    private func start(_ handedOver: consuming ConnectionTally) {
        tally = consume handedOver
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

/// Carries a tally to the event loop without a copy staying behind: the closure that crosses over holds this box,
/// and the loop takes the tally out of it.
private final class TallyHandOver: @unchecked Sendable {
    private var tally: ConnectionTally?

    init(_ tally: consuming ConnectionTally) {
        self.tally = consume tally
    }

    /// The tally; called once, on the event loop.
    func take() -> ConnectionTally {
        guard let tally = tally.take() else { preconditionFailure("a tally is handed over once") }
        return tally
    }
}
