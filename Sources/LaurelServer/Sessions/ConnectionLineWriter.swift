import CoreMetrics
import LaurelJSON
import LaurelProtocol
import LaurelStore
import NIOCore
import Synchronization

/// The sending side of one client connection, shared by the connection's own request loop and by everyone who
/// pushes to the user. Stored pushes leave it exactly once each and strictly in `seq` order: they can arrive
/// from several tasks at once and out of order (two requests of the user finishing together, a notification
/// from another instance), so they wait in `pending` until the next `seq` is there, and a gap that does not fill
/// is read back from the store (every push it hears of is already committed). While a resumed connection
/// replays what it missed, live pushes wait too.
///
/// Writing never waits for the client: a line goes to the channel at once. A client that lets more than the
/// channel's high write watermark (`--max-outbound-buffer`) pile up unsent makes the channel unwritable; it is a
/// slow consumer and is disconnected, so that no client, by not reading, holds up the requests, pushes or store
/// events of anyone else. (The channel counts the bytes itself: counting them here took a promise and a completion
/// callback on every line.) The channel counts what its event loop has taken: lines handed over in one go (the
/// pushes a resumed connection missed) are counted once the loop takes them, so what a slow consumer holds is
/// bounded by the limit plus one such hand-over, which is in memory anyway.
actor ConnectionLineWriter {
    nonisolated let id: ConnectionID
    private let channel: any Channel
    private let framing: LineFraming
    private let metrics: ServerMetrics
    /// Whether `BYE` was said, and the channel's writability as its event loop saw it last. Held under a lock with
    /// every hand-over to the channel, so that lines leave in the order they were written and none after `BYE`, while
    /// writing an answer costs its request no hop to this actor.
    private let gate: LineGate
    private var deliveredSeq: Int64 = 0
    private var pending: [Int64: StoredPush] = [:]
    private var holding = false
    private var draining = false
    private var missedPushes: (@Sendable (_ after: Int64) async -> [StoredPush])?

    init(id: ConnectionID, channel: any Channel, gate: LineGate, framing: LineFraming, metrics: ServerMetrics) {
        self.id = id
        self.channel = channel
        self.gate = gate
        self.framing = framing
        self.metrics = metrics
    }

    /// The `seq` of the last push delivered (or skipped as not wanted).
    var deliveredThrough: Int64 { deliveredSeq }

    /// Sends a line, in order after every line sent before. A failed write means the connection is gone; its
    /// request loop notices and cleans up.
    nonisolated func write(_ line: consuming ByteBuffer) {
        // Framed before the lock, while the line has one owner (the closure would only borrow it).
        let framed = framing.framed(consume line)
        handOver { channel in channel.writeAndFlush(framed, promise: nil) }
    }

    /// Sends lines already framed, in order after every line sent before, in one hand-over to the channel's event
    /// loop and one flush: the pushes of one write reach the socket in one system call, not one each.
    private nonisolated func write(framed lines: [ByteBuffer]) {
        let lines = framing.joined(lines)
        handOver { channel in
            guard !channel.eventLoop.inEventLoop else { return Self.writeAndFlush(lines, on: channel) }
            channel.eventLoop.execute { Self.writeAndFlush(lines, on: channel) }
        }
    }

    private static func writeAndFlush(_ lines: [ByteBuffer], on channel: any Channel) {
        for line in lines { channel.write(line, promise: nil) }
        channel.flush()
    }

    /// Runs `write` under the lock unless `BYE` was said; a channel that is no longer writable is a slow consumer.
    private nonisolated func handOver(_ write: (any Channel) -> Void) {
        gate.withState { state in
            guard !state.closed else { return }
            guard state.writable else {
                metrics.slowConsumers.increment()
                sayBye(reason: "slow_consumer", closed: &state.closed)
                return
            }
            write(channel)
        }
    }

    /// Where to read pushes this connection missed (set once the user is known).
    func readMissedPushes(with reader: @escaping @Sendable (_ after: Int64) async -> [StoredPush]) {
        missedPushes = reader
    }

    /// Stored pushes that just happened (of one write, or read back), in any order; `answer`, the answer of the
    /// request that made them, goes out first, with them when they can go at once.
    func deliver(_ pushes: [StoredPush], after answer: consuming ByteBuffer? = nil) async {
        guard !gate.withState({ $0.closed }) else {
            metrics.pushesDropped.increment(by: pushes.lazy.filter { $0.seq > self.deliveredSeq }.count)
            return
        }
        // Sized once: grown an insert at a time, a first LOG's 4-8 pushes rehashed the table three times.
        pending.reserveCapacity(pending.count + pushes.count)
        for push in pushes where push.seq > deliveredSeq { pending[push.seq] = push }
        guard !holding, !draining else {
            // Live pushes wait for a replay, or a drain already running takes them; an answer never waits.
            if let line = answer.take() { write(consume line) }
            return
        }
        var leading: ByteBuffer?
        if let line = answer.take() { leading = framing.framed(consume line) }
        await drain(leading: consume leading)
    }

    /// Holds live pushes until `finishReplay`; from now on only pushes after `seq` are delivered.
    func beginReplay(after seq: Int64) {
        skip(through: seq)
        holding = true
    }

    /// Marks every push up to `seq` as delivered (a connection that does not resume starts after the last one).
    func skip(through seq: Int64) {
        deliveredSeq = max(deliveredSeq, seq)
    }

    func finishReplay(_ missed: [StoredPush]) async {
        for push in missed where push.seq > deliveredSeq { pending[push.seq] = push }
        holding = false
        await drain()
    }

    /// Forgets a replay begun for an AUTH that then failed: the connection is back to knowing no user.
    func abandonReplay() {
        pending.removeAll()
        holding = false
        deliveredSeq = 0
        missedPushes = nil
    }

    /// Says `BYE` (after every line written before it, as far as the client takes them) and closes the connection.
    /// Nothing is written after it.
    nonisolated func close(reason: String) {
        gate.withState { sayBye(reason: reason, closed: &$0.closed) }
    }

    private nonisolated func sayBye(reason: String, closed: inout Bool) {
        guard !closed else { return }
        closed = true
        channel.writeAndFlush(framing.framed(OutboundLine.push(kind: "BYE", ["reason": .string(reason)])), promise: nil)
        channel.close(promise: nil)
    }

    /// Writes pending pushes in `seq` order, those ready in one hand-over. Only one drain runs at a time; pushes
    /// that arrive while it writes (the actor lets others in at each `await`) are picked up by the running drain.
    private func drain(leading: ByteBuffer? = nil) async {
        guard !holding, !draining else { return }
        draining = true
        defer { draining = false }
        var leading = leading
        while !pending.isEmpty || leading != nil {
            var ready: [ByteBuffer] = []
            if let line = leading.take() { ready.append(line) }
            while let next = pending.removeValue(forKey: deliveredSeq + 1) {
                deliveredSeq = next.seq
                ready.append(framing.framed(PushRendering.line(next)))
            }
            if !ready.isEmpty { write(framed: ready) }
            pending = pending.filter { $0.key > deliveredSeq }
            guard let earliest = pending.keys.min() else { return }
            // A gap: the pushes between are committed but came another way (or not yet); read them back.
            for push in await missedPushes?(deliveredSeq) ?? [] where push.seq > deliveredSeq && push.seq < earliest {
                pending[push.seq] = push
            }
            if pending[deliveredSeq + 1] == nil {
                // Nothing fills the gap (pushes are kept 30 days at least): go on rather than hold everything back.
                deliveredSeq = earliest - 1
            }
        }
    }
}

/// A process-unique number for a connection, for logs and for the session registry.
struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt64
    var description: String { String(rawValue) }
}
