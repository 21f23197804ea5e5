import LaurelJSON
import LaurelProtocol
import LaurelStore
import NIOCore

/// The sending side of one client connection, shared by the connection's own request loop and by everyone who
/// pushes to the user. It keeps pushes in `seq` order and delivers each at most once: while a resumed connection
/// replays what it missed, live pushes wait, and anything already delivered is dropped.
actor ConnectionOutlet {
    nonisolated let id: ConnectionID
    private let writer: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let channel: any Channel
    private var deliveredSeq: Int64 = 0
    private var heldDuringReplay: [StoredPush]?

    init(id: ConnectionID, writer: NIOAsyncChannelOutboundWriter<ByteBuffer>, channel: any Channel) {
        self.id = id
        self.writer = writer
        self.channel = channel
    }

    /// The `seq` of the last push delivered (or skipped as not wanted).
    var deliveredThrough: Int64 { deliveredSeq }

    func write(_ line: ByteBuffer) async {
        // A failed write means the connection is gone; its request loop notices and cleans up.
        try? await writer.write(line)
    }

    /// A stored push that just happened.
    func deliver(_ push: StoredPush) async {
        if heldDuringReplay != nil {
            heldDuringReplay?.append(push)
            return
        }
        await send(push)
    }

    /// Holds live pushes until `finishReplay`; from now on only pushes after `seq` are delivered.
    func beginReplay(after seq: Int64) {
        skip(through: seq)
        if heldDuringReplay == nil { heldDuringReplay = [] }
    }

    /// Marks every push up to `seq` as delivered (a connection that does not resume starts after the last one).
    func skip(through seq: Int64) {
        deliveredSeq = max(deliveredSeq, seq)
    }

    func finishReplay(_ missed: [StoredPush]) async {
        for push in missed { await send(push) }
        let held = heldDuringReplay ?? []
        heldDuringReplay = nil
        for push in held.sorted(by: { $0.seq < $1.seq }) { await send(push) }
    }

    /// Says `BYE` and closes the connection.
    func close(reason: String) async {
        await write(OutboundLine.push(kind: "BYE", ["reason": .string(reason)]))
        try? await channel.close()
    }

    private func send(_ push: StoredPush) async {
        guard push.seq > deliveredSeq else { return }
        deliveredSeq = push.seq
        await write(PushRendering.line(push))
    }
}

/// A process-unique number for a connection, for logs and for the session registry.
struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt64
    var description: String { String(rawValue) }
}

/// How a stored push looks on the wire: `* KIND {...data, "seq": n}`.
enum PushRendering {
    static func object(_ push: StoredPush) -> JSONObject {
        var object = push.data
        object["seq"] = .int(Int(push.seq))
        return object
    }

    static func line(_ push: StoredPush) -> ByteBuffer {
        OutboundLine.push(kind: push.kind, object(push))
    }
}
